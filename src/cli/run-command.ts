import { type Command, Option } from 'commander';
import { Agent, createToolRouter } from '../agent/index.js';
import { withCache } from '../cache/node.js';
import { type SkillWarning, shownSkillWarnings } from '../skills/index.js';
import { loadSkills } from '../skills/node.js';
import { type Workspace, workspacePrompt, workspaceTools } from '../workspace/index.js';
import { colorsFor, useColor } from './colors.js';
import { dataDir } from './data-dir.js';
import { EXIT_CODES, EXIT_CODES_HELP, exitCodeForStatus } from './exit-codes.js';
import { addExamples } from './global-options.js';
import { addModelOptions, type ModelFlags, numberIn, withRequestDefaults } from './model-options.js';
import { openWorkspace } from './open-workspace.js';
import { createPrettyPrinter } from './pretty-printer.js';
import { collectFlag, readAttachments } from './read-attachments.js';
import { readQuestion } from './read-stdin.js';
import { reportError } from './report-error.js';
import { chosenModelSpec, selectModel } from './select-model.js';
import { offerCode, selectTools } from './select-tools.js';
import { terminalApprover, terminalAsk } from './terminal-prompts.js';

interface RunFlags extends ModelFlags {
  model?: string;
  tools?: string;
  protocol: 'auto' | 'native' | 'json' | 'react' | 'code';
  codeMode?: boolean;
  maxSteps: number;
  trace?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  language: 'en' | 'zh';
  instructions?: string;
  root?: string;
  allowWrite?: boolean;
  allowPrivateNetwork?: boolean;
  yes?: boolean;
  cache?: boolean;
  dataDir?: string;
  attach?: string[];
  skills?: string[];
  workspace?: string;
}

/** `thinkflow run "question"`: one run, the answer on stdout, the steps as a tree on stderr. */
export function registerRunCommand(program: Command): void {
  const run = program
    .command('run')
    .description('Run an agent on one question; the answer goes to stdout, the steps to stderr.')
    .argument(
      '[question]',
      'what to ask; `-` or none reads it from stdin; piped text beside a question is added as context',
    )
    .option(
      '-m, --model <spec>',
      'model spec: demo, openai:MODEL, openai-responses:MODEL, anthropic:MODEL, gemini:MODEL, ollama:MODEL, compat:URL#MODEL, llamacpp:PATH.gguf, scripted:FILE.json (default: THINKFLOW_MODEL, then `thinkflow config set model`)',
    )
    .option('-t, --tools <names>', 'comma-separated tool kits, e.g. calculator,files,data')
    .addOption(
      new Option(
        '-p, --protocol <protocol>',
        'how the model calls tools (code: it writes a program that calls them; needs quickjs-emscripten)',
      )
        .choices(['auto', 'native', 'json', 'react', 'code'])
        .default('auto'),
    )
    .option(
      '--code-mode',
      'also offer run_code: one program that calls the tools, beside calling them one by one (needs quickjs-emscripten)',
    )
    .addOption(
      new Option('--max-steps <n>', 'most loop steps').argParser(numberIn('--max-steps', 1, 1000, true)).default(10),
    )
    .option('--trace <file>', 'write every event as a JSON line to FILE')
    .option('--json', 'print the whole RunResult as JSON on stdout (errors as JSON on stderr)')
    .option('-q, --quiet', 'print nothing but the answer')
    .option('-v, --verbose', 'stream model text and show full observations')
    .addOption(new Option('--language <lang>', 'prompt language').choices(['en', 'zh']).default('en'))
    .option('--instructions <text>', 'extra system instructions')
    .option('--root <dir>', 'folder the file and data tools are confined to (default: cwd)')
    .option('--allow-write', 'let the files tools write, move and delete (each call asks first)')
    .option('--allow-private-network', 'let http_get reach private and loopback addresses')
    .option('-y, --yes', 'approve every tool call that asks for approval')
    .option('--cache', 'answer repeated model requests from a local cache')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .option('--attach <file>', 'send an image or file with the question (repeatable)', collectFlag)
    .option('--skills <dir>', 'load Agent Skills (SKILL.md folders) from DIR (repeatable)', collectFlag)
    .option(
      '--workspace <dir|memory>',
      'give the agent files and a shell: DIR in a Linux sandbox (bubblewrap), or `memory` (in memory)',
    );
  addModelOptions(run);
  run.addHelpText('after', `\n${EXIT_CODES_HELP}`);
  addExamples(run, [
    ['no API key needed: the demo model and its mock tools', 'thinkflow run --model demo "What is (15 + 7) * 3?"'],
    ['a question from a pipe, the answer alone', 'echo "北京天气怎么样？" | thinkflow run --model demo --quiet'],
    [
      'a file as context, the RunResult as JSON',
      'cat notes.txt | thinkflow run -m openai:gpt-4o-mini --temperature 0 --json "Summarise this" > result.json',
    ],
  ]);
  run.action(async (question: string | undefined, flags: RunFlags) => {
    process.exitCode = await runOnce(question, flags);
  });
}

async function runOnce(argument: string | undefined, flags: RunFlags): Promise<number> {
  const quiet = flags.quiet === true || flags.json === true;
  let workspace: Workspace | undefined;
  try {
    const question = await readQuestion({ argument });
    const attachments = readAttachments(flags.attach);
    const spec = chosenModelSpec(flags.model);
    const demo = spec === 'demo';
    let model = await selectModel(flags.model, process.env, { providerOptions: flags.option });
    model = withRequestDefaults(model, flags);
    if (flags.cache) model = withCache(model, dataDir(flags.dataDir));
    if (demo && !quiet)
      process.stderr.write(
        colorsFor(process.stderr).magenta('Using the demo model: a rule-based simulation with mock tools, no LLM.\n'),
      );
    const { tools: kits, protocol } = selectTools(
      spec,
      { tools: flags.tools, protocol: flags.protocol },
      { root: flags.root, allowWrite: flags.allowWrite, allowPrivateNetwork: flags.allowPrivateNetwork },
    );
    workspace = flags.workspace ? await openWorkspace(flags.workspace) : undefined;
    const offered = workspace ? [...kits, ...workspaceTools(workspace, { language: flags.language })] : kits;
    const tools = await offerCode(offered, { codeMode: flags.codeMode, protocol: flags.protocol });
    const instructions = workspace
      ? [workspacePrompt(workspace, flags.language), flags.instructions].filter(Boolean).join('\n\n')
      : flags.instructions;
    // Loaded before the run, so a SKILL.md that breaks a rule is reported (naming the file) once, before any model call.
    const warned: SkillWarning[] = [];
    const skills = flags.skills?.length
      ? await loadSkills(flags.skills, { onWarning: (w) => warned.push(w) })
      : undefined;
    if (!flags.quiet) printSkillWarnings(warned);
    const agent = new Agent({
      model,
      tools,
      skills,
      protocol,
      // Many tools (kits, a workspace): each step is offered those that match, and search_tools.
      toolRouting: createToolRouter(),
      maxSteps: flags.maxSteps,
      language: flags.language,
      instructions,
      traceFile: flags.trace,
      approve: terminalApprover(flags.yes === true),
    });
    const controller = new AbortController();
    // The first Ctrl-C stops the run cleanly (status aborted, exit 130); a second one does not wait.
    const onSigint = () => {
      if (controller.signal.aborted) process.exit(EXIT_CODES.interrupted);
      controller.abort();
    };
    process.on('SIGINT', onSigint);
    try {
      const result = await agent.run(question, {
        signal: controller.signal,
        attachments,
        onEvent: quiet ? undefined : createPrettyPrinter({ verbose: flags.verbose }),
        ask: terminalAsk,
      });
      if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (result.output) process.stdout.write(`${result.output}\n`);
      if (flags.quiet && !flags.json && result.status !== 'done')
        process.stderr.write(`thinkflow run: ${result.status}${result.error ? `: ${result.error.message}` : ''}\n`);
      return exitCodeForStatus(result.status);
    } finally {
      process.off('SIGINT', onSigint);
    }
  } catch (error) {
    return reportError(error, { command: 'thinkflow run', json: flags.json, color: useColor(process.stderr) });
  } finally {
    await workspace?.dispose();
  }
}

/** A folder's skill warnings on stderr, the first 50 of them and how many more (a big public folder has a thousand). */
function printSkillWarnings(warnings: SkillWarning[]): void {
  const yellow = colorsFor(process.stderr).yellow;
  const { lines, more } = shownSkillWarnings(warnings);
  for (const line of lines) process.stderr.write(yellow(`warning: ${line}\n`));
  if (more > 0) process.stderr.write(yellow(`warning: and ${more} more skill warnings\n`));
}
