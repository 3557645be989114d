import { writeFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import { Agent } from '../agent/index.js';
import { ConfigError, errorMessage } from '../core/index.js';
import {
  type EvalCase,
  type EvalReport,
  type EvalSuite,
  formatEvalTable,
  formatProgress,
  loadSuite,
  renderEvalHtml,
  runSuite,
  withCache,
} from '../trace/index.js';
import { dataDir } from './data-dir.js';
import { NO_MODEL_MESSAGE, selectModel } from './select-model.js';
import { selectTools } from './select-tools.js';
import { type CommandIo, processIo } from './trace-command.js';

export interface EvalFlags {
  model?: string;
  repeat?: string;
  concurrency?: string;
  minPass?: string;
  json?: string;
  html?: string;
  cache?: boolean;
  dataDir?: string;
}

/** Where `thinkflow eval` writes: the command's io plus whether stderr is a terminal (redrawn bar vs lines). */
export interface EvalIo extends CommandIo {
  stderrIsTTY?: boolean;
}

/**
 * Runs an eval suite with real agents: each case gets a fresh model (`--model`, else the case's or the
 * suite's spec; `scripted:` paths resolve against the suite's folder) and its tool kits. Prints the
 * table, writes the JSON and HTML reports, and returns the exit code: 1 when the pass rate is under
 * `--min-pass`.
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
  const runCase = async (testCase: EvalCase) => {
    const spec = modelSpec(testCase, suite, flags, baseDir) as string;
    let model = await selectModel(spec);
    if (flags.cache) model = withCache(model, dataDir(flags.dataDir));
    const demo = spec === 'demo';
    const kits = testCase.tools ?? suite.tools;
    const protocol = testCase.protocol ?? suite.protocol ?? 'auto';
    const agent = new Agent({
      model,
      tools: selectTools(kits?.join(','), { root: baseDir }, demo),
      protocol: demo && protocol === 'auto' ? 'react' : protocol,
      maxSteps: testCase.maxSteps ?? suite.maxSteps,
      instructions: testCase.instructions ?? suite.instructions,
      streaming: false,
    });
    return agent.run(testCase.input);
  };
  const report = await runSuite(suite, {
    runCase,
    repeat,
    concurrency,
    baseDir,
    model: flags.model,
    onProgress: (p) => io.stderr(io.stderrIsTTY ? `\r${formatProgress(p)}` : `${formatProgress(p)}\n`),
  });
  if (io.stderrIsTTY) io.stderr('\n');
  io.stdout(formatEvalTable(report, { color: io.color, minPass }));
  if (flags.json) writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
  if (flags.html) writeFileSync(flags.html, renderEvalHtml(report));
  return { code: minPass !== undefined && report.passRate < minPass ? 1 : 0, report };
}

function modelSpec(testCase: EvalCase, suite: EvalSuite, flags: EvalFlags, baseDir: string): string | undefined {
  if (flags.model) return flags.model;
  const spec = testCase.model ?? suite.model;
  if (!spec) return process.env.THINKFLOW_MODEL;
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
  program
    .command('eval')
    .description('Run an evaluation suite (YAML): cases with checks, a pass-rate table, JSON and HTML reports.')
    .argument('<suite>', 'the suite file, e.g. examples/eval/suite.yaml')
    .option('-m, --model <spec>', 'run every case against this model (default: each case’s own)')
    .option('--repeat <n>', 'runs per case', '1')
    .option('--concurrency <n>', 'runs at once', '4')
    .option('--min-pass <rate>', 'exit 1 when the pass rate is below this (0.9 or 90%)')
    .option('--json <file>', 'write the report as JSON')
    .option('--html <file>', 'write the report as a self-contained HTML page')
    .option('--cache', 'answer repeated model requests from a local cache')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (file: string, flags: EvalFlags) => {
      try {
        process.exitCode = (await evalSuite(file, flags, io)).code;
      } catch (error) {
        io.stderr(`thinkflow eval: ${errorMessage(error)}\n`);
        process.exitCode = 1;
      }
    });
}
