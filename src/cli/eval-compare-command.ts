import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError } from '../core/index.js';
import {
  type Comparison,
  compareExperiments,
  type ExperimentStore,
  type ExperimentTrials,
  formatComparison,
  loadExperiment,
  readExperimentJson,
  renderExperimentHtml,
  SqliteExperimentStore,
} from '../eval/index.js';
import { dataDir } from './data-dir.js';
import type { EvalIo } from './eval-flags.js';
import { EXIT_CODES } from './exit-codes.js';
import { addExamples } from './global-options.js';
import { exitWith } from './report-error.js';

export interface EvalCompareFlags {
  failOnRegression?: boolean;
  maxDrop?: string;
  maxBroken?: string;
  json?: boolean;
  html?: string;
  dataDir?: string;
}

/** An experiment from a JSON file (`-o`), else by id from the data dir's store. */
async function open(ref: string, stores: { store?: ExperimentStore; dataDir?: string }): Promise<ExperimentTrials> {
  if (ref.endsWith('.json')) return readExperimentJson(ref);
  stores.store ??= new SqliteExperimentStore({ dataDir: dataDir(stores.dataDir) });
  return loadExperiment(stores.store, ref);
}

/**
 * Compares experiment B with baseline A (ids in the store, or JSON files), prints the table (or JSON),
 * writes the HTML, and returns the exit code: 1 on a regression with `--fail-on-regression`, else 0.
 */
export async function evalCompare(
  a: string,
  b: string,
  flags: EvalCompareFlags,
  io: EvalIo,
): Promise<{ code: number; comparison: Comparison }> {
  const number = (value: string | undefined, name: string) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0)
      throw new ConfigError({ message: `${name} must be a number of at least 0 (got ${value}).` });
    return n;
  };
  const thresholds = {
    maxDrop: number(flags.maxDrop, '--max-drop'),
    maxBroken: number(flags.maxBroken, '--max-broken'),
  };
  const stores: { store?: ExperimentStore; dataDir?: string } = { dataDir: flags.dataDir };
  try {
    const comparison = await compareExperiments(await open(a, stores), await open(b, stores), thresholds);
    io.stdout(
      flags.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison, { color: io.color }),
    );
    if (flags.html) {
      const after = await open(b, stores);
      const summary =
        'summary' in after && after.summary
          ? (after.summary as Parameters<typeof renderExperimentHtml>[0]['summary'])
          : undefined;
      if (!summary)
        throw new ConfigError({ message: `${b} has no summary (was it finished?): cannot write its HTML.` });
      const first = comparison.scorers[0]?.name;
      const changed = comparison.changes.filter((c) => c.scorer === first);
      writeFileSync(
        flags.html,
        await renderExperimentHtml({ meta: after.meta, summary, trials: after.trials }, { comparison, changed }),
      );
    }
    const failed = flags.failOnRegression && comparison.verdict === 'regression';
    return { code: failed ? EXIT_CODES.noAnswer : EXIT_CODES.done, comparison };
  } finally {
    await stores.store?.close?.();
  }
}

/** Registers `thinkflow eval compare A B`. */
export function registerEvalCompare(group: Command, io: EvalIo): void {
  const command = group
    .command('compare')
    .description(
      'Compare experiment B with baseline A: per-scorer deltas with intervals, fixed and broken cases, a verdict.',
    )
    .argument('<a>', 'the baseline: an experiment id in the store, or an experiment JSON file (-o)')
    .argument('<b>', 'the change, the same way')
    .option('--fail-on-regression', 'exit 1 when the verdict is a regression (for CI)')
    .option('--max-drop <n>', 'a scorer regresses when its mean falls by more than this (default 0)')
    .option('--max-broken <n>', 'a regression also when more cases than this broke')
    .option('--json', 'print the comparison as JSON')
    .option('--html <file>', "write B's report with the comparison and a per-case diff chart")
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (a: string, b: string, flags: EvalCompareFlags) => {
      await exitWith(async () => (await evalCompare(a, b, flags, io)).code, {
        command: 'thinkflow eval compare',
        json: flags.json,
        color: io.color,
      });
    });
  addExamples(command, [
    [
      'gate a pull request on the main branch’s run',
      'thinkflow eval compare main.json pr.json --fail-on-regression --max-drop 0.02',
    ],
  ]);
}
