import type { Command } from 'commander';
import { type AgentEvent, ConfigError } from '../core/index.js';
import { loadConfig } from '../server/index.js';
import { createTraceWriter } from '../trace/index.js';
import type { Workflow, WorkflowResult } from '../workflow/index.js';
import { sqliteWorkflowStore } from '../workflow/node.js';
import { configPath } from './config-path.js';
import { dataDir } from './data-dir.js';
import { EXIT_CODES } from './exit-codes.js';
import { addExamples } from './global-options.js';

interface WorkflowFlags {
  config?: string;
  dataDir?: string;
  trace?: string;
}

/** A JSON value from the command line; text that is not JSON is taken as a string. */
function jsonArg(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function workflowNamed(flags: WorkflowFlags, name: string): Promise<Workflow> {
  const config = await loadConfig(configPath(flags.config, 'workflow'));
  const workflow = config.workflows?.[name];
  if (!workflow) {
    const names = Object.keys(config.workflows ?? {});
    throw new ConfigError({
      message: `${flags.config} has no workflow "${name}"${names.length ? `; it has ${names.join(', ')}` : ': add workflows: { name: workflow } to its defineConfig'}.`,
    });
  }
  return workflow;
}

/** What a run, resume or fork gets: the data dir's store, and the trace writer's `onEvent` with `--trace`. */
interface RunWith {
  store: ReturnType<typeof sqliteWorkflowStore>;
  onEvent?: (event: AgentEvent) => void;
}

/**
 * Runs `use` with the data dir's SQLite workflow store (and with `--trace FILE`, every event appended
 * to FILE as a JSON line, secrets redacted as run traces are), prints the result as JSON and sets the
 * exit code.
 */
async function withStore(flags: WorkflowFlags, use: (run: RunWith) => Promise<WorkflowResult>) {
  const store = sqliteWorkflowStore({ dataDir: dataDir(flags.dataDir) });
  const trace = flags.trace ? createTraceWriter(flags.trace) : undefined;
  try {
    const result = await use({ store, onEvent: trace?.write });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (result.status === 'suspended') {
      const waits = result.suspended.map((s) => (s.event ? `event "${s.event}"` : `step "${s.stepId}"`)).join(', ');
      process.stderr.write(
        `thinkflow: run ${result.runId} is suspended, waiting for ${waits}: thinkflow workflow resume ${result.runId} ...\n`,
      );
    }
    if (result.status === 'failed' || result.status === 'cancelled') process.exitCode = EXIT_CODES.noAnswer;
  } finally {
    trace?.close();
    store.close?.();
  }
}

/** Registers `thinkflow workflow run | resume | fork`. */
export function registerWorkflowCommand(program: Command): void {
  const command = program
    .command('workflow')
    .description('Run, resume or fork a workflow of the config file (checkpoints in the data dir).');
  const common = (sub: Command) =>
    sub
      .option('--config <file>', 'config file (default: thinkflow.config.* here)')
      .option('--data-dir <dir>', 'where the workflow store lives (default ~/.thinkflow)')
      .option('--trace <file>', 'append every event as a JSON line to FILE (read it with thinkflow trace show FILE)');
  const run = common(
    command.command('run <name> [input]').description('start a run; input is JSON (or a plain string)'),
  );
  run.action(async (name: string, input: string | undefined, flags: WorkflowFlags) => {
    const workflow = await workflowNamed(flags, name);
    await withStore(flags, (run) => workflow.run(jsonArg(input), run));
  });
  addExamples(run, [
    ['start a run with a string input', 'thinkflow workflow run triage \'"The site is down"\''],
    ['and record its events', 'thinkflow workflow run triage \'"The site is down"\' --trace triage.jsonl'],
    [
      'with a JSON input and its own data dir',
      'thinkflow workflow run digest \'{"urls":["https://example.com"]}\' --data-dir ./data',
    ],
  ]);
  const resume = common(
    command
      .command('resume <name> <runId>')
      .description('continue a suspended (or crashed) run')
      .option('--step <id>', 'the suspended step to resume')
      .option('--event <name>', 'the event a waitForEvent waits for')
      .option('--payload <json>', 'what the step or event gets'),
  ).action(
    async (name: string, runId: string, flags: WorkflowFlags & { step?: string; event?: string; payload?: string }) => {
      const workflow = await workflowNamed(flags, name);
      await withStore(flags, (run) =>
        workflow.resume(runId, { step: flags.step, event: flags.event, payload: jsonArg(flags.payload) }, run),
      );
    },
  );
  addExamples(resume, [
    [
      "answer the step it waits for, adding this pass to the run's trace",
      'thinkflow workflow resume triage RUN_ID --step review --payload \'{"approved":true}\' --trace triage.jsonl',
    ],
    [
      'deliver the event it waits for',
      'thinkflow workflow resume orders RUN_ID --event paid --payload \'{"amount":10}\'',
    ],
    ['continue a run whose process died', 'thinkflow workflow resume triage RUN_ID'],
  ]);
  const fork = common(
    command
      .command('fork <name> <runId>')
      .description('a new run reusing every step before --from')
      .requiredOption('--from <step>', 'the step to run again from')
      .option('--input <json>', 'a new input for that step'),
  );
  fork.action(async (name: string, runId: string, flags: WorkflowFlags & { from: string; input?: string }) => {
    const workflow = await workflowNamed(flags, name);
    await withStore(flags, (run) => workflow.fork(runId, { fromStep: flags.from, input: jsonArg(flags.input) }, run));
  });
  addExamples(fork, [
    ['run again from a step', 'thinkflow workflow fork triage RUN_ID --from draft'],
    ['with a new input for that step', 'thinkflow workflow fork triage RUN_ID --from draft --input \'"shorter"\''],
  ]);
  addExamples(command, [
    ['start a run', 'thinkflow workflow run triage \'"The site is down"\''],
    ['resume it', 'thinkflow workflow resume triage RUN_ID --step review --payload \'{"approved":true}\''],
  ]);
}
