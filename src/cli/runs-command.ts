import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { ConfigError, Message, plural, withoutBom } from '../core/index.js';
import {
  createLocalRuns,
  loadConfig,
  openStore,
  type RunStore,
  type RunSummary,
  ServerRunStatus,
} from '../server/index.js';
import { configPath } from './config-path.js';
import { dataDir } from './data-dir.js';
import { EXIT_CODES, exitCodeForStatus } from './exit-codes.js';
import { addExamples } from './global-options.js';
import { type CommandIo, processIo } from './trace-command.js';

/** Where the runs are: the server's SQLite store in the data dir, or PostgreSQL. */
export interface RunsStoreFlags {
  dataDir?: string;
  pg?: string;
  pgSchema?: string;
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Reads `7d`, `12h`, `30m`, `45s`, `2w` (a bare number is days) into milliseconds. */
export function parseAge(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw]?)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an age: use a number and a unit, like 7d, 12h, 30m or 45s.`);
  return Number(match[1]) * UNITS[match[2] || 'd'];
}

async function withStore<T>(flags: RunsStoreFlags, use: (store: RunStore) => Promise<T>): Promise<T> {
  const store = await openStore({ pg: flags.pg, pgSchema: flags.pgSchema, dataDir: dataDir(flags.dataDir) }, undefined);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
const seconds = (ms: number | undefined) => (ms === undefined ? '' : `${(ms / 1000).toFixed(1)}s`);

function summaryLine(run: RunSummary): string {
  const cost = run.costUsd === undefined ? '' : `$${run.costUsd.toFixed(4)}`;
  return [
    run.id,
    run.agent,
    run.status,
    time(run.createdAt),
    seconds(run.durationMs),
    run.steps ?? '',
    run.tokens ?? '',
    cost,
  ]
    .join('\t')
    .trimEnd();
}

/** `thinkflow runs list`: the newest runs, one per line (or a JSON page with `--json`). */
export async function runsList(
  flags: RunsStoreFlags & { agent?: string; status?: string; limit?: string; cursor?: string; json?: boolean },
  io: CommandIo,
): Promise<void> {
  const status = flags.status?.split(',').map((s) => ServerRunStatus.parse(s.trim()));
  const limit = flags.limit === undefined ? undefined : Number.parseInt(flags.limit, 10);
  const page = await withStore(flags, (store) =>
    store.queryRuns({ agent: flags.agent, status, limit, before: flags.cursor }),
  );
  if (flags.json) return io.stdout(`${JSON.stringify(page, null, 2)}\n`);
  io.stdout('id\tagent\tstatus\tcreated\tduration\tsteps\ttokens\tcost\n');
  for (const run of page.runs) io.stdout(`${summaryLine(run)}\n`);
  if (page.next) io.stderr(`more: --cursor ${page.next}\n`);
}

/** `thinkflow runs show ID`: the stored run as JSON. Returns the exit code. */
export async function runsShow(id: string, flags: RunsStoreFlags, io: CommandIo): Promise<number> {
  const run = await withStore(flags, (store) => store.getRun(id));
  if (!run) {
    io.stderr(`thinkflow: no run with id ${id} (it may have been pruned)\n`);
    return 1;
  }
  io.stdout(`${JSON.stringify(run, null, 2)}\n`);
  return 0;
}

/** `thinkflow runs export ID`: the run's events as JSONL, the same lines `--trace` writes. Returns the exit code. */
export async function runsExport(id: string, flags: RunsStoreFlags, io: CommandIo): Promise<number> {
  return withStore(flags, async (store) => {
    if (!(await store.getRun(id))) {
      io.stderr(`thinkflow: no run with id ${id} (it may have been pruned)\n`);
      return 1;
    }
    for (let after = 0; ; ) {
      const events = await store.readEvents(id, after);
      if (events.length === 0) return 0;
      io.stdout(events.map((stored) => `${JSON.stringify(stored.event)}\n`).join(''));
      after = events[events.length - 1].seq;
    }
  });
}

/** `thinkflow runs prune`: deletes finished runs older than `--older-than` (default 30d); never unfinished ones. */
export async function runsPrune(
  flags: RunsStoreFlags & { olderThan?: string; keep?: string; dryRun?: boolean },
  io: CommandIo,
): Promise<void> {
  const olderThan = Date.now() - parseAge(flags.olderThan ?? '30d');
  const keepNewest = flags.keep === undefined ? undefined : Number.parseInt(flags.keep, 10);
  const total = await withStore(flags, async (store) => {
    if (flags.dryRun) return (await store.pruneRuns({ olderThan, keepNewest, dryRun: true })).runs;
    let deleted = 0;
    for (;;) {
      const { runs, skipped } = await store.pruneRuns({ olderThan, keepNewest });
      deleted += runs;
      if (skipped) io.stderr('thinkflow: another process is pruning this store; stopped.\n');
      if (skipped || runs === 0) return deleted;
    }
  });
  io.stdout(flags.dryRun ? `would delete ${plural(total, 'run')}\n` : `deleted ${plural(total, 'run')}\n`);
}

/** `thinkflow runs stats`: runs by status, the oldest, and the store's size. */
export async function runsStats(flags: RunsStoreFlags & { json?: boolean }, io: CommandIo): Promise<void> {
  const stats = await withStore(flags, (store) => store.stats());
  if (flags.json) return io.stdout(`${JSON.stringify(stats, null, 2)}\n`);
  const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
  io.stdout(`runs: ${stats.runs}\n`);
  for (const [status, n] of Object.entries(stats.byStatus)) io.stdout(`  ${status}: ${n}\n`);
  io.stdout(`oldest: ${stats.oldest === undefined ? '-' : time(stats.oldest)}\n`);
  io.stdout(`size: ${mb(stats.bytes)}${stats.freeBytes ? ` (${mb(stats.freeBytes)} free for reuse)` : ''}\n`);
  if (stats.incrementalVacuum === false) {
    io.stdout('pruned space is reused but not given back: `thinkflow runs vacuum` converts this file (once)\n');
  }
}

/** `thinkflow runs vacuum`: gives pruned space back (and converts an old SQLite file to incremental vacuum). */
export async function runsVacuum(flags: RunsStoreFlags, io: CommandIo): Promise<void> {
  const { bytesBefore, bytesAfter, ms } = await withStore(flags, (store) => store.vacuum());
  const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
  io.stdout(`size ${mb(bytesBefore)} → ${mb(bytesAfter)} in ${(ms / 1000).toFixed(1)} s\n`);
}

/** The message list of a `--messages` file (JSON), or a ConfigError naming what is wrong with it. */
function readMessages(file: string): Message[] {
  let json: unknown;
  try {
    json = JSON.parse(withoutBom(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new ConfigError({
      message: `--messages ${file} is not a readable JSON file: ${String(error)}`,
      cause: error,
    });
  }
  const parsed = z.array(Message).min(1).safeParse(json);
  if (!parsed.success) {
    const problem = z.prettifyError(parsed.error).replaceAll('\n', ' ');
    throw new ConfigError({ message: `--messages ${file} must hold a list of messages: ${problem}` });
  }
  return parsed.data;
}

/**
 * `thinkflow runs fork ID --from-step N`: a new run from step N of a stored agent run, executed here with
 * the config's agent and stored beside it; prints the ended run as JSON. Returns the exit code.
 */
export async function runsFork(
  id: string,
  flags: RunsStoreFlags & { config?: string; fromStep: string; messages?: string },
  io: CommandIo,
): Promise<number> {
  const fromStep = Number(flags.fromStep);
  if (!/^\d+$/.test(flags.fromStep)) {
    throw new ConfigError({ message: `--from-step must be a step number, 0 for the first (got "${flags.fromStep}").` });
  }
  const messages = flags.messages === undefined ? undefined : readMessages(flags.messages);
  const config = await loadConfig(configPath(flags.config, 'runs fork'));
  return withStore(flags, async (store) => {
    const runs = createLocalRuns({ agents: config.agents, store });
    try {
      const forked = await runs.fork(id, { fromStep, messages });
      if (!forked.ok) {
        const why =
          forked.reason === 'unknown_run'
            ? `no run with id ${id} (it may have been pruned)`
            : forked.reason === 'invalid_fork'
              ? forked.message
              : forked.reason === 'unknown_agent'
                ? `${flags.config} has no agent for run ${id}`
                : `the fork was refused (${forked.reason})`;
        io.stderr(`thinkflow: ${why}\n`);
        return forked.reason === 'unknown_run' ? EXIT_CODES.noAnswer : EXIT_CODES.usage;
      }
      const ended = (await runs.wait(forked.run.id)) ?? forked.run;
      io.stdout(`${JSON.stringify(ended, null, 2)}\n`);
      return ended.result ? exitCodeForStatus(ended.result.status) : EXIT_CODES.noAnswer;
    } finally {
      await runs.close();
    }
  });
}

function storeOptions(command: Command): Command {
  return command
    .option('--data-dir <dir>', 'where the SQLite run store lives (default ~/.thinkflow)')
    .option('--pg <postgres-url>', 'read runs from PostgreSQL instead')
    .option('--pg-schema <name>', 'the PostgreSQL schema (default thinkflow)');
}

/** Registers `thinkflow runs list|show|export|fork|prune|stats|vacuum`. */
export function registerRunsCommand(program: Command, io: CommandIo = processIo()): void {
  const runs = program.command('runs').description('Look at, export and prune the runs a server stored.');
  addExamples(runs, [
    ['the newest failed runs of one agent', 'thinkflow runs list --agent support --status failed'],
    ['a run as a trace, then read it', 'thinkflow runs export run_123 > run.jsonl && thinkflow trace show run.jsonl'],
    ['what pruning a week would free, without deleting', 'thinkflow runs prune --older-than 7d --dry-run'],
  ]);
  const list = storeOptions(runs.command('list'))
    .description('The newest runs: status, agent, created, duration, steps, tokens, cost.')
    .option('--agent <name>', 'only runs of this agent')
    .option('--status <list>', 'only runs in these statuses (comma-separated)')
    .option('--limit <n>', 'runs per page (default 50)')
    .option('--cursor <cursor>', 'the page after this cursor')
    .option('--json', 'print the page as JSON')
    .action((flags) => runsList(flags, io));
  addExamples(list, [
    ['the newest runs in the default data dir', 'thinkflow runs list'],
    ['failed and stopped runs as JSON', 'thinkflow runs list --status failed,max_steps --json'],
    ['runs in PostgreSQL', 'thinkflow runs list --pg postgres://localhost/thinkflow --limit 20'],
  ]);
  const show = storeOptions(runs.command('show <id>'))
    .description('The stored run as JSON.')
    .action(async (id: string, flags: RunsStoreFlags) => {
      process.exitCode = await runsShow(id, flags, io);
    });
  addExamples(show, [
    ['one run with its result', 'thinkflow runs show run_123'],
    ['its answer alone', 'thinkflow runs show run_123 | jq -r .result.output'],
  ]);
  const exported = storeOptions(runs.command('export <id>'))
    .description('The run as JSONL (like --trace): thinkflow runs export ID > run.jsonl; trace show run.jsonl')
    .action(async (id: string, flags: RunsStoreFlags) => {
      process.exitCode = await runsExport(id, flags, io);
    });
  addExamples(exported, [
    ['a run as a trace file', 'thinkflow runs export run_123 > run.jsonl'],
    ['replay it against the current model', 'thinkflow runs export run_123 > run.jsonl && thinkflow replay run.jsonl'],
  ]);
  const fork = storeOptions(runs.command('fork <id>'))
    .description('A new run from a step of a stored agent run: the steps before it are carried over, not run again.')
    .requiredOption('--from-step <n>', 'the step to run again (0 for the first)')
    .option('--messages <file>', 'a JSON list of messages the model sees at that step instead')
    .option('--config <file>', 'config file with the agent (default: thinkflow.config.* here)')
    .action(async (id: string, flags: RunsStoreFlags & { config?: string; fromStep: string; messages?: string }) => {
      process.exitCode = await runsFork(id, flags, io);
    });
  addExamples(fork, [
    ['run step 2 of a run again', 'thinkflow runs fork run_123 --from-step 2'],
    ['with the conversation edited', 'thinkflow runs fork run_123 --from-step 2 --messages edited.json'],
  ]);
  const prune = storeOptions(runs.command('prune'))
    .description('Delete finished runs and their events; unfinished, waiting and queued runs are kept.')
    .option('--older-than <age>', 'age of the runs to delete: 7d, 12h, 30m (default 30d)')
    .option('--keep <n>', 'also delete finished runs beyond the newest n')
    .option('--dry-run', 'count what would be deleted, delete nothing')
    .action((flags) => runsPrune(flags, io));
  addExamples(prune, [
    ['count what a week would remove', 'thinkflow runs prune --older-than 7d --dry-run'],
    ['keep only the newest 10000 finished runs', 'thinkflow runs prune --keep 10000'],
  ]);
  const stats = storeOptions(runs.command('stats'))
    .description('Runs by status, the oldest run, and the store size.')
    .option('--json', 'print as JSON')
    .action((flags) => runsStats(flags, io));
  addExamples(stats, [
    ['runs, bytes and the oldest run', 'thinkflow runs stats'],
    ['the same for PostgreSQL, as JSON', 'thinkflow runs stats --pg postgres://localhost/thinkflow --json'],
  ]);
  const vacuum = storeOptions(runs.command('vacuum'))
    .description(
      'Give pruned space back: rewrites the SQLite file (converting one made before incremental vacuum), or VACUUMs the PostgreSQL tables.',
    )
    .action((flags) => runsVacuum(flags, io));
  addExamples(vacuum, [
    ['convert and compact the default store (stop the server first for a large file)', 'thinkflow runs vacuum'],
    ['VACUUM the PostgreSQL tables', 'thinkflow runs vacuum --pg postgres://localhost/thinkflow'],
  ]);
}
