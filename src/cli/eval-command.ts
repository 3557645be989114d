import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { Agent, createToolRouter } from '../agent/index.js';
import { withCache } from '../cache/node.js';
import { ConfigError, namePart } from '../core/index.js';
import {
  type EvalCase,
  type EvalReport,
  type EvalSuite,
  type ExperimentStore,
  formatEvalTable,
  loadExperiment,
  loadSuite,
  memoryExperimentStore,
  renderEvalHtml,
  renderJunit,
  runSuite,
  SqliteExperimentStore,
} from '../eval/index.js';
import { dataDir } from './data-dir.js';
import { registerEvalCompare } from './eval-compare-command.js';
import type { EvalFlags, EvalIo } from './eval-flags.js';
import { registerEvalList } from './eval-list-command.js';
import { registerEvalRescore } from './eval-rescore-command.js';
import { evalTsSuite } from './eval-ts-suite.js';
import { EXIT_CODES } from './exit-codes.js';
import { addExamples } from './global-options.js';
import { createProgressBar } from './progress-bar.js';
import { exitWith } from './report-error.js';
import { chosenModelSpec, NO_MODEL_MESSAGE, selectModel } from './select-model.js';
import { selectTools } from './select-tools.js';
import { processIo } from './trace-command.js';

export type { EvalFlags, EvalIo } from './eval-flags.js';

/**
 * Runs an eval suite with real agents: each case gets a fresh model (`--model`, else the case's or the
 * suite's spec; `scripted:` paths resolve against the suite's folder) and its tool kits. Prints the
 * table (or the report as JSON with `--json`), writes the JSON and HTML reports, and returns the exit
 * code: 1 when any run failed, or with `--min-pass` when the pass rate is under it.
 */
export async function evalSuite(
  file: string,
  flags: EvalFlags,
  io: EvalIo,
): Promise<{ code: number; report: EvalReport }> {
  const { suite, baseDir } = loadSuite(file);
  const store = openExperimentStore(flags);
  const experimentId =
    flags.resume ?? `${namePart(suite.name, { distinct: false })}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const repeat = positiveInt(flags.repeat, '--repeat', 1);
  const concurrency = positiveInt(flags.concurrency, '--concurrency', 4);
  const minPass = flags.minPass === undefined ? undefined : rate(flags.minPass);
  const missing = suite.cases.filter((c) => !modelSpec(c, suite, flags, baseDir));
  if (missing.length) {
    throw new ConfigError({
      message: `No model for case ${missing.map((c) => c.id).join(', ')}.\n${NO_MODEL_MESSAGE}`,
    });
  }
  if (flags.traces) mkdirSync(flags.traces, { recursive: true });
  // Each run's id, so the report can name the run (and its trace) behind every result.
  const runIds = new Map<string, string>();
  const runCase = async (testCase: EvalCase, { repeat: index }: { repeat: number }) => {
    const spec = modelSpec(testCase, suite, flags, baseDir) as string;
    let model = await selectModel(spec);
    // Scripted and demo models answer from local files already, and all share one model id: never cache them.
    if (flags.cache && !spec.startsWith('scripted:') && spec !== 'demo')
      model = withCache(model, dataDir(flags.dataDir));
    const { tools, protocol } = selectTools(
      spec,
      { tools: testCase.tools ?? suite.tools, protocol: testCase.protocol ?? suite.protocol },
      { root: baseDir },
    );
    const agent = new Agent({
      model,
      tools,
      protocol,
      toolRouting: createToolRouter(),
      maxSteps: testCase.maxSteps ?? suite.maxSteps,
      instructions: testCase.instructions ?? suite.instructions,
      streaming: false,
      traceFile: flags.traces ? join(flags.traces, traceName(testCase.id, index)) : undefined,
    });
    const result = await agent.run(testCase.input);
    runIds.set(`${testCase.id}\n${index}`, result.runId);
    return result;
  };
  const bar = createProgressBar({
    sink: { write: io.stderr, tty: io.stderrIsTTY === true },
    label: `eval ${suite.name ?? ''}`.trim(),
    total: suite.cases.length * repeat,
  });
  const suiteReport = await runSuite(suite, {
    runCase,
    repeat,
    concurrency,
    baseDir,
    model: flags.model,
    store,
    experimentId,
    onProgress: (p) =>
      bar.update(p.done, `${p.passed} passed · ${p.done - p.passed} failed · last ${p.caseId} ${p.pass ? '✓' : '✗'}`),
  });
  bar.finish();
  const report = withRunIds(suiteReport, runIds);
  io.stdout(
    flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatEvalTable(report, { color: io.color, minPass }),
  );
  if (flags.output) writeFileSync(flags.output, `${JSON.stringify(report, null, 2)}\n`);
  if (flags.html) writeFileSync(flags.html, renderEvalHtml(report));
  const experiment = await loadExperiment(store, experimentId);
  if (flags.junit) writeFileSync(flags.junit, await renderJunit(experiment.meta, experiment.trials));
  if (flags.save)
    io.stderr(`experiment ${experimentId} saved (compare it: thinkflow eval compare ${experimentId} OTHER)\n`);
  await store.close?.();
  const failed = minPass === undefined ? report.passed < report.runs : report.passRate < minPass;
  return { code: failed ? EXIT_CODES.noAnswer : EXIT_CODES.done, report };
}

/** The data dir's SQLite store with `save`, else one in memory for this command. */
export function openExperimentStore(flags: Pick<EvalFlags, 'save' | 'dataDir'>): ExperimentStore {
  return flags.save ? new SqliteExperimentStore({ dataDir: dataDir(flags.dataDir) }) : memoryExperimentStore();
}

/** Runs a suite file: a TypeScript or JavaScript module of experiments, or a YAML suite of cases with checks. */
export async function evalRun(file: string, flags: EvalFlags, io: EvalIo): Promise<number> {
  if (!/\.[mc]?[jt]s$/.test(file)) return (await evalSuite(file, flags, io)).code;
  const store = openExperimentStore(flags);
  try {
    return await evalTsSuite(file, flags, io, store);
  } finally {
    await store.close?.();
  }
}

/** The report with each run's `runId` (a run that could not start has none). */
function withRunIds(report: EvalReport, runIds: Map<string, string>): EvalReport {
  return {
    ...report,
    cases: report.cases.map((c) => ({
      ...c,
      runs: c.runs.map((run) => {
        const runId = runIds.get(`${c.id}\n${run.repeat}`);
        return runId ? { ...run, runId } : run;
      }),
    })),
  };
}

/** A trace file name from a case id (any text, in any language) and a repeat: `multiply-1.jsonl`, one file per case and repeat. */
function traceName(caseId: string, repeat: number): string {
  return `${namePart(caseId)}-${repeat + 1}.jsonl`;
}

function modelSpec(testCase: EvalCase, suite: EvalSuite, flags: EvalFlags, baseDir: string): string | undefined {
  if (flags.model) return flags.model;
  const spec = testCase.model ?? suite.model;
  if (!spec) return chosenModelSpec(undefined);
  if (!spec.startsWith('scripted:')) return spec;
  const path = spec.slice('scripted:'.length);
  return `scripted:${isAbsolute(path) ? path : resolve(baseDir, path)}`;
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new ConfigError({ message: `${name} must be a whole number of at least 1 (got ${value}).` });
  return n;
}

/** `0.9`, `90` and `90%` all mean 90%. */
function rate(value: string): number {
  const n = Number(value.replace(/%$/, ''));
  if (!Number.isFinite(n) || n < 0 || n > 100)
    throw new ConfigError({ message: `--min-pass must be a rate like 0.9 or 90% (got ${value}).` });
  return value.endsWith('%') || n > 1 ? n / 100 : n;
}

/** Registers `thinkflow eval [run] SUITE`, `thinkflow eval compare A B`, `thinkflow eval rescore` and `thinkflow eval list`. */
export function registerEvalCommand(
  program: Command,
  io: EvalIo = { ...processIo(), stderrIsTTY: process.stderr.isTTY === true },
): void {
  const group = program.command('eval').description(EVAL_DESCRIPTION);
  const run = group
    .command('run', { isDefault: true })
    .description('Run a suite: a YAML suite of cases with checks, or a suite.ts of experiments (data, task, scorers).')
    .argument('<suite>', 'the suite file, e.g. examples/eval/suite.yaml or evals/support.eval.ts')
    .option('-m, --model <spec>', 'run every case against this model (default: each case’s own)')
    .option('--repeat <n>', 'trials per case (default 1, or the suite’s trials)')
    .option('--concurrency <n>', 'trials at once (default 4)')
    .option('--min-pass <rate>', 'pass when at least this rate passes (0.9 or 90%); without it every run must pass')
    .option('--json', 'print the report as JSON on stdout instead of the table (errors as JSON on stderr)')
    .option('-o, --output <file>', 'write the report as JSON to FILE')
    .option('--html <file>', 'write the report as a self-contained HTML page (score distributions as charts)')
    .option('--junit <file>', 'write the results as JUnit XML (one testcase per case and trial) for CI')
    .option('--traces <dir>', "write each run's JSONL trace into DIR (open them with the report in thinkflow studio)")
    .option('--no-cache', 'call the model even for a request it has answered before (default: replies are cached)')
    .option('--no-save', 'do not keep the experiment in the data dir (default: kept, for compare and resume)')
    .option('--resume <id>', 'continue a killed experiment: finished trials are not run again')
    .option('--config <file>', 'the config whose agents a suite.ts names by string (default thinkflow.config.ts)')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (file: string, flags: EvalFlags) => {
      await exitWith(() => evalRun(file, flags, io), { command: 'thinkflow eval', json: flags.json, color: io.color });
    });
  addExamples(run, [
    ['the example suite (scripted models, no API key)', 'thinkflow eval examples/eval/suite.yaml'],
    [
      'in CI: fail under 90%, keep the reports',
      'thinkflow eval run suite.yaml --min-pass 90% -o report.json --html report.html --junit junit.xml',
    ],
    ['the pass rate alone, from the JSON report', 'thinkflow eval suite.yaml --json | jq .passRate'],
  ]);
  registerEvalCompare(group, io);
  registerEvalRescore(group, io);
  registerEvalList(group, io);
  addExamples(group, [
    ['the example suite (scripted models, no API key)', 'thinkflow eval examples/eval/suite.yaml'],
    ['in CI: fail when B regresses against baseline A', 'thinkflow eval compare A B --fail-on-regression'],
    ['score stored traces again, no model calls', 'thinkflow eval rescore traces/*.jsonl --scorer noError'],
  ]);
}

export const EVAL_DESCRIPTION =
  'Evaluate agents: run suites (YAML or suite.ts) as experiments, compare two, rescore stored runs and traces.';
