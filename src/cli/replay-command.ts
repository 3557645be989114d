import type { Command } from 'commander';
import pc from 'picocolors';
import { Agent } from '../agent/index.js';
import { type AgentEvent, ConfigError, type EventOf, plural, type RunResult } from '../core/index.js';
import type { Model } from '../llm/index.js';
import type { ProtocolName } from '../protocols/index.js';
import type { AnyTool } from '../tools/index.js';
import { builtinTools } from '../tools/node.js';
import {
  createTraceWriter,
  type Divergence,
  firstDivergence,
  readTrace,
  renderTimeline,
  replayModel,
  replayTools,
  traceRuns,
} from '../trace/index.js';
import { addExamples } from './global-options.js';
import { createProgressBar, type ProgressSink } from './progress-bar.js';
import { exitWith } from './report-error.js';
import { selectModel } from './select-model.js';
import { DEMO_TOOLS } from './select-tools.js';
import { type CommandIo, processIo } from './trace-command.js';

export interface ReplayFlags {
  model?: string;
  recordedTools?: boolean;
  maxSteps?: string;
  instructions?: string;
  trace?: string;
  json?: boolean;
  show?: boolean;
  /** Which run of a trace holding several (1-based, or a run id). */
  run?: string;
}

/** What `thinkflow replay` found. */
export interface ReplayReport {
  status: RunResult['status'];
  recordedStatus?: string;
  steps: number;
  divergence?: Divergence;
}

/**
 * Re-runs the agent of a trace (its input, tools by name and protocol) with the recorded model replies,
 * or with `--model`, and reports the first step where the new run differs. Exit code 0 when it does
 * not diverge, 1 when it does.
 */
export async function replayTrace(
  file: string,
  flags: ReplayFlags,
  io: CommandIo & { progress?: ProgressSink },
): Promise<number> {
  const recorded = pickRun(traceRuns(readTrace(file)), file, flags.run);
  const start = recorded.find((e): e is EventOf<'run_start'> => e.type === 'run_start' && !e.parentRunId);
  if (!start)
    throw new ConfigError({ message: `${file} has no run_start event: it is not a complete thinkflow trace.` });
  const replay = flags.model ? undefined : replayModel(recorded);
  const model: Model = replay ?? (await selectModel(flags.model));
  const end = recorded.find((e): e is EventOf<'run_end'> => e.type === 'run_end' && e.runId === start.runId);
  const recordedSteps = new Set(
    recorded.filter((e) => e.runId === start.runId && e.type === 'step_start').map((e) => e.step),
  ).size;
  const agent = new Agent({
    model,
    tools: toolsFor(recorded, start, flags.recordedTools === true),
    protocol: protocolOf(start.protocol),
    maxSteps: flags.maxSteps
      ? Number(flags.maxSteps)
      : end?.status === 'max_steps'
        ? recordedSteps
        : Math.max(10, recordedSteps + 1),
    instructions: flags.instructions,
    streaming: false,
  });
  const events: AgentEvent[] = [];
  const writer = flags.trace ? createTraceWriter(flags.trace) : undefined;
  const bar = createProgressBar({
    sink: io.progress ?? { write: io.stderr, tty: false },
    label: 'replaying steps',
    total: recordedSteps,
  });
  const result = await agent.run(start.input, {
    onEvent: (event) => {
      events.push(event);
      writer?.write(event);
      if (event.type === 'step_start' && !event.parentRunId) bar.update(event.step + 1);
    },
  });
  bar.finish();
  writer?.close();
  const divergence = firstDivergence(recorded, events) ?? replay?.divergence;
  const report: ReplayReport = {
    status: result.status,
    recordedStatus: end?.status,
    steps: result.steps.length,
    divergence,
  };
  if (flags.show) io.stderr(renderTimeline(events, { color: io.color }));
  io.stdout(flags.json ? `${JSON.stringify(report, null, 2)}\n` : describe(report, io.color));
  return divergence ? 1 : 0;
}

/**
 * The run to replay: the trace's only run, or the one `--run` names (its 1-based position, or its id)
 * when the file holds several (`--trace` appends).
 */
function pickRun(runs: AgentEvent[][], file: string, which: string | undefined): AgentEvent[] {
  if (which === undefined) {
    if (runs.length <= 1) return runs[0] ?? [];
    const ids = runs.map((run, i) => `${i + 1}: ${run[0]?.runId}`).join(', ');
    throw new ConfigError({
      message: `${file} holds ${runs.length} runs (${ids}): choose one with --run N or --run RUN_ID.`,
    });
  }
  const byPosition = /^\d+$/.test(which) ? runs[Number(which) - 1] : undefined;
  const picked = byPosition ?? runs.find((run) => run[0]?.runId === which);
  if (!picked) {
    throw new ConfigError({
      message: `--run ${which}: ${file} holds ${runs.length === 1 ? 'one run' : `${runs.length} runs`}; give a position from 1 to ${runs.length} or a run id.`,
    });
  }
  return picked;
}

function describe(report: ReplayReport, color: boolean): string {
  const c = pc.createColors(color);
  const head = `replayed ${plural(report.steps, 'step')}: ${report.status} (recorded: ${report.recordedStatus ?? 'unfinished'})\n`;
  const d = report.divergence;
  if (!d) return `${head}${c.green('no divergence')}: the new run matches the trace\n`;
  const lines = [`${c.red(`diverged at step ${d.step}`)} (${d.kind}): ${d.message}`];
  if (d.expected !== undefined) lines.push(`  recorded: ${d.expected}`);
  if (d.actual !== undefined) lines.push(`  now:      ${d.actual}`);
  return `${head}${lines.join('\n')}\n`;
}

/** The trace's tools: built-ins by name, recorded outputs for the rest (or for all with `recordedOnly`). */
function toolsFor(recorded: AgentEvent[], start: EventOf<'run_start'>, recordedOnly: boolean): AnyTool[] {
  const known = new Map<string, AnyTool>();
  for (const tool of DEMO_TOOLS) known.set(tool.name, tool);
  for (const make of Object.values(builtinTools)) {
    try {
      for (const tool of make({})) if (!known.has(tool.name)) known.set(tool.name, tool);
    } catch {
      // A kit that cannot be built without options is simply not available for replay.
    }
  }
  const real = start.tools.map((name) => known.get(name)).filter((t): t is AnyTool => t !== undefined);
  const replayed = replayTools(recorded, { tools: real });
  if (recordedOnly) return replayed;
  return replayed.map((tool) => known.get(tool.name) ?? tool);
}

function protocolOf(name: string): Exclude<ProtocolName, 'code'> {
  if (name === 'native' || name === 'json' || name === 'react') return name;
  throw new ConfigError({ message: `The trace's protocol "${name}" is not one of native, json, react.` });
}

/** Registers `thinkflow replay FILE`. */
export function registerReplayCommand(
  program: Command,
  io: CommandIo & { progress?: ProgressSink } = {
    ...processIo(),
    progress: { write: (t) => process.stderr.write(t), tty: process.stderr.isTTY === true },
  },
): void {
  const command = program
    .command('replay')
    .description('Re-run a trace (recorded model replies, or --model) and report the first step where it diverges.')
    .argument('<file>', 'a JSONL trace written with --trace')
    .option('-m, --model <spec>', 'run against this model instead of the recorded replies')
    .option('--recorded-tools', 'answer every tool call from the trace instead of running the tools')
    .option('--max-steps <n>', 'most loop steps (default: from the trace)')
    .option('--instructions <text>', 'the system instructions the recorded run used')
    .option('--trace <file>', 'write the new run as a JSONL trace')
    .option('--show', 'print the new run as a timeline on stderr')
    .option('--json', 'print the report as JSON')
    .option('--run <n|id>', 'the run to replay when the file holds several (its position from 1, or its id)')
    .action(async (file: string, flags: ReplayFlags) => {
      await exitWith(() => replayTrace(file, flags, io), {
        command: 'thinkflow replay',
        json: flags.json,
        color: io.color,
      });
    });
  addExamples(command, [
    [
      'record a run, then replay it with the recorded replies',
      'thinkflow run -m demo --trace run.jsonl "What is 2+2?" && thinkflow replay run.jsonl',
    ],
    ['does a new model still take the same steps?', 'thinkflow replay run.jsonl --model ollama:qwen2.5:7b --show'],
    ['the report as JSON, for CI', 'thinkflow replay run.jsonl --recorded-tools --json'],
  ]);
}
