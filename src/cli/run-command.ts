import type { Command } from 'commander';
import pc from 'picocolors';
import { Agent } from '../agent/index.js';
import { ConfigError, isThinkflowError, type RunStatus } from '../core/index.js';
import { withCache } from '../trace/index.js';
import { dataDir } from './data-dir.js';
import { createPrettyPrinter } from './pretty-printer.js';
import { selectModel } from './select-model.js';
import { selectTools } from './select-tools.js';
import { terminalApprover, terminalAsk } from './terminal-prompts.js';

interface RunFlags {
  model?: string;
  tools?: string;
  protocol?: string;
  maxSteps?: string;
  trace?: string;
  json?: boolean;
  verbose?: boolean;
  language?: string;
  instructions?: string;
  root?: string;
  allowWrite?: boolean;
  allowPrivateNetwork?: boolean;
  yes?: boolean;
  cache?: boolean;
  dataDir?: string;
}

const PROTOCOLS = ['auto', 'native', 'json', 'react'] as const;

/** Exit codes by status, so scripts can tell outcomes apart. */
const EXIT: Record<RunStatus, number> = {
  done: 0,
  max_steps: 2,
  loop_detected: 3,
  budget_exceeded: 4,
  aborted: 130,
  failed: 1,
};

/** `thinkflow run "question"`: one run, the answer on stdout, the loop on stderr. */
export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run an agent on one question; the answer goes to stdout, each step to stderr.')
    .argument('<question>', 'what to ask')
    .option(
      '-m, --model <spec>',
      'model spec: demo, openai:MODEL, anthropic:MODEL, ollama:MODEL, compat:URL#MODEL, scripted:FILE.json',
    )
    .option('-t, --tools <names>', 'comma-separated tool kits, e.g. calculator,files,data')
    .option('-p, --protocol <protocol>', 'auto | native | json | react', 'auto')
    .option('--max-steps <n>', 'most loop steps', '10')
    .option('--trace <file>', 'write every event as a JSON line to FILE')
    .option('--json', 'print the whole RunResult as JSON on stdout')
    .option('-v, --verbose', 'stream model text and show full observations')
    .option('--language <lang>', 'prompt language: en | zh', 'en')
    .option('--instructions <text>', 'extra system instructions')
    .option('--root <dir>', 'folder the file and data tools are confined to (default: cwd)')
    .option('--allow-write', 'let the files tools write, move and delete (each call asks first)')
    .option('--allow-private-network', 'let http_get reach private and loopback addresses')
    .option('-y, --yes', 'approve every tool call that asks for approval')
    .option('--cache', 'answer repeated model requests from a local cache')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (question: string, flags: RunFlags) => {
      process.exitCode = await runOnce(question, flags);
    });
}

async function runOnce(question: string, flags: RunFlags): Promise<number> {
  try {
    const protocol = flags.protocol as (typeof PROTOCOLS)[number];
    if (!PROTOCOLS.includes(protocol))
      throw new ConfigError({ message: `--protocol must be one of ${PROTOCOLS.join(', ')}.` });
    const maxSteps = Number(flags.maxSteps);
    if (!Number.isInteger(maxSteps) || maxSteps < 1)
      throw new ConfigError({ message: '--max-steps must be a whole number of at least 1.' });
    const demo = (flags.model ?? process.env.THINKFLOW_MODEL) === 'demo';
    let model = await selectModel(flags.model);
    if (flags.cache) model = withCache(model, dataDir(flags.dataDir));
    if (demo)
      process.stderr.write(pc.magenta('Using the demo model: a rule-based simulation with mock tools, no LLM.\n'));
    const tools = selectTools(
      flags.tools,
      { root: flags.root, allowWrite: flags.allowWrite, allowPrivateNetwork: flags.allowPrivateNetwork },
      demo,
    );
    const agent = new Agent({
      model,
      tools,
      protocol: demo && protocol === 'auto' ? 'react' : protocol,
      maxSteps,
      language: flags.language === 'zh' ? 'zh' : 'en',
      instructions: flags.instructions,
      traceFile: flags.trace,
      approve: terminalApprover(flags.yes === true),
    });
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const result = await agent.run(question, {
        signal: controller.signal,
        onEvent: createPrettyPrinter({ verbose: flags.verbose }),
        ask: terminalAsk,
      });
      process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${result.output}\n`);
      return EXIT[result.status];
    } finally {
      process.off('SIGINT', onSigint);
    }
  } catch (error) {
    const message = isThinkflowError(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`${pc.red('thinkflow run:')} ${message}\n`);
    // A ConfigError (bad flags, a missing optional package) is a usage error: exit 2, like main.ts.
    return isThinkflowError(error) && error.code === 'config' ? 2 : 1;
  }
}
