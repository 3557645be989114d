import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { Agent } from '../agent/index.js';
import { withCache } from '../cache/node.js';
import { ConfigError } from '../core/index.js';
import {
  type EvalCase,
  type EvalReport,
  type EvalSuite,
  formatEvalTable,
  loadSuite,
  renderEvalHtml,
  runSuite,
} from '../eval/index.js';
import { dataDir } from './data-dir.js';
import { EXIT_CODES } from './exit-codes.js';
import { addExamples } from './global-options.js';
import { createProgressBar } from './progress-bar.js';
import { reportError } from './report-error.js';
import { chosenModelSpec, NO_MODEL_MESSAGE, selectModel } from './select-model.js';
import { selectTools } from './select-tools.js';
import { type CommandIo, processIo } from './trace-command.js';

export interface EvalFlags {
  model?: string;
  repeat?: string;
  concurrency?: string;
  minPass?: string;
  /** Print the report as JSON on stdout instead of the table. */
  json?: boolean;
  /** Write the report as JSON to this file. */
  output?: string;
  html?: string;
  /** Write each run's JSONL trace into this folder (the studio's Eval tab opens them with the report). */
  traces?: string;
  cache?: boolean;
  dataDir?: string;
}

/** Where `thinkflow eval` writes: the command's io plus whether stderr is a terminal (a progress bar, or nothing). */
export interface EvalIo extends CommandIo {
  stderrIsTTY?: boolean;
}

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
    if (flags.cache) model = withCache(model, dataDir(flags.dataDir));
    const { tools, protocol } = selectTools(
      spec,
      { tools: testCase.tools ?? suite.tools, protocol: testCase.protocol ?? suite.protocol },
      { root: baseDir },
    );
    const agent = new Agent({
      model,
      tools,
      protocol,
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
  const failed = minPass === undefined ? report.passed < report.runs : report.passRate < minPass;
  return { code: failed ? EXIT_CODES.noAnswer : EXIT_CODES.done, report };
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

/** A trace file name from a case id (any text) and a repeat: `multiply-1.jsonl`. */
function traceName(caseId: string, repeat: number): string {
  return `${caseId.replace(/[^\w.-]+/g, '_')}-${repeat + 1}.jsonl`;
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

/** Registers `thinkflow eval SUITE`. */
export function registerEvalCommand(
  program: Command,
  io: EvalIo = { ...processIo(), stderrIsTTY: process.stderr.isTTY === true },
): void {
  const command = program
    .command('eval')
    .description('Run an evaluation suite (YAML): cases with checks, a pass-rate table, JSON and HTML reports.')
    .argument('<suite>', 'the suite file, e.g. examples/eval/suite.yaml')
    .option('-m, --model <spec>', 'run every case against this model (default: each case’s own)')
    .option('--repeat <n>', 'runs per case', '1')
    .option('--concurrency <n>', 'runs at once', '4')
    .option('--min-pass <rate>', 'pass when at least this rate passes (0.9 or 90%); without it every run must pass')
    .option('--json', 'print the report as JSON on stdout instead of the table (errors as JSON on stderr)')
    .option('-o, --output <file>', 'write the report as JSON to FILE')
    .option('--html <file>', 'write the report as a self-contained HTML page')
    .option('--traces <dir>', "write each run's JSONL trace into DIR (open them with the report in thinkflow studio)")
    .option('--cache', 'answer repeated model requests from a local cache')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (file: string, flags: EvalFlags) => {
      try {
        process.exitCode = (await evalSuite(file, flags, io)).code;
      } catch (error) {
        process.exitCode = reportError(error, { command: 'thinkflow eval', json: flags.json, color: io.color });
      }
    });
  addExamples(command, [
    ['the example suite (scripted models, no API key)', 'thinkflow eval examples/eval/suite.yaml'],
    [
      'in CI: fail under 90%, keep the reports',
      'thinkflow eval suite.yaml --min-pass 90% -o report.json --html report.html',
    ],
    ['the pass rate alone, from the JSON report', 'thinkflow eval suite.yaml --json | jq .passRate'],
  ]);
}
