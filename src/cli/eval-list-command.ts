import type { Command } from 'commander';
import { ConfigError } from '../core/index.js';
import { alignColumns, type ExperimentMeta, SqliteExperimentStore } from '../eval/index.js';
import { dataDir } from './data-dir.js';
import type { EvalIo } from './eval-flags.js';
import { addExamples } from './global-options.js';
import { exitWith } from './report-error.js';

export interface EvalListFlags {
  limit?: string;
  json?: boolean;
  dataDir?: string;
}

/** One experiment as `eval list` shows it: its meta, and its pass rate once it finished. */
type Listed = ExperimentMeta & { passRate?: number };

/**
 * The experiments kept in the data dir's store (`thinkflow eval run` keeps each one there unless
 * `--no-save`), newest first: the ids `eval compare` and `eval run --resume` take.
 */
export async function evalList(flags: EvalListFlags, io: EvalIo): Promise<number> {
  const limit = flags.limit === undefined ? 50 : Number(flags.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new ConfigError({ message: `--limit must be a whole number of at least 1 (got ${flags.limit}).` });
  const store = new SqliteExperimentStore({ dataDir: dataDir(flags.dataDir) });
  try {
    const listed: Listed[] = [];
    for (const meta of await store.listExperiments(limit)) {
      const found = await store.getExperiment(meta.id);
      listed.push({ ...meta, passRate: found?.summary?.passRate });
    }
    if (flags.json) {
      io.stdout(`${JSON.stringify(listed, null, 2)}\n`);
      return 0;
    }
    if (listed.length === 0) {
      io.stdout(`No experiments in ${dataDir(flags.dataDir)}: \`thinkflow eval run SUITE\` keeps each one there.\n`);
      return 0;
    }
    const rows = listed.map((e) => [
      e.id,
      e.status,
      `${e.cases}×${e.trials}`,
      e.passRate === undefined ? '' : `${(e.passRate * 100).toFixed(1)}%`,
      e.startedAt.replace('T', ' ').slice(0, 19),
    ]);
    const table = alignColumns(['id', 'status', 'cases×trials', 'pass', 'started'], rows);
    io.stdout(`${[table.header, table.rule, ...table.rows].join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** Registers `thinkflow eval list`. */
export function registerEvalList(group: Command, io: EvalIo): void {
  const command = group
    .command('list')
    .description('List the experiments kept in the data dir (newest first): the ids compare and --resume take.')
    .option('--limit <n>', 'at most this many (default 50)')
    .option('--json', 'print them as JSON')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (flags: EvalListFlags) => {
      await exitWith(() => evalList(flags, io), { command: 'thinkflow eval list', json: flags.json, color: io.color });
    });
  addExamples(command, [['the last five experiments', 'thinkflow eval list --limit 5']]);
}
