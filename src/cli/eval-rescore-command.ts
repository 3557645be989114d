import type { Command } from 'commander';
import { ConfigError } from '../core/index.js';
import { type RescoreItem, type RunLike, rescore, scorerFromSpec, traceItems } from '../eval/index.js';
import { openStore, type RunStore } from '../server/index.js';
import { dataDir } from './data-dir.js';
import type { EvalIo } from './eval-flags.js';
import { EXIT_CODES } from './exit-codes.js';
import { addExamples } from './global-options.js';
import { exitWith } from './report-error.js';

export interface EvalRescoreFlags {
  scorer?: string[];
  runs?: boolean;
  agent?: string;
  limit?: string;
  json?: boolean;
  dataDir?: string;
  pg?: string;
}

/** The server's stored runs, newest first, a page at a time (only finished runs with a result). */
export async function* storedRuns(
  store: RunStore,
  agent: string | undefined,
  limit: number,
): AsyncGenerator<RescoreItem> {
  let before: string | undefined;
  let left = limit;
  while (left > 0) {
    const page = await store.queryRuns({ agent, before, limit: Math.min(200, left) });
    const records = await store.getRuns(page.runs.map((r) => r.id));
    for (const record of records) {
      if (record.result)
        yield { id: record.id, input: record.input, run: record.result as RunLike, metadata: { agent: record.agent } };
    }
    left -= page.runs.length;
    if (!page.next || !page.runs.length) return;
    before = page.next;
  }
}

/**
 * Scores runs that already happened (trace files, or the server's stored runs with `--runs`) with
 * deterministic scorers: no model is called. Prints one line per run (or JSON lines) and the pass rate
 * per scorer; exit 1 when any score failed.
 */
export async function evalRescore(sources: string[], flags: EvalRescoreFlags, io: EvalIo): Promise<number> {
  const specs = flags.scorer ?? [];
  if (!specs.length)
    throw new ConfigError({ message: 'Name at least one scorer: --scorer noError --scorer contains:Paris' });
  if (!flags.runs && !sources.length)
    throw new ConfigError({ message: 'Give trace files to rescore, or --runs for the stored runs.' });
  const scorers = specs.map(scorerFromSpec);
  const store = flags.runs ? await openStore({ pg: flags.pg, dataDir: dataDir(flags.dataDir) }, undefined) : undefined;
  const totals = new Map(scorers.map((s) => [s.name, { passed: 0, n: 0, sum: 0 }]));
  let failed = false;
  let scored = 0;
  try {
    const items = store ? storedRuns(store, flags.agent, Number(flags.limit ?? 1000)) : traceItems(sources);
    for await (const result of rescore(items, scorers)) {
      scored++;
      for (const s of result.scores) {
        const t = totals.get(s.name) as { passed: number; n: number; sum: number };
        t.n++;
        t.sum += s.score;
        if (s.pass) t.passed++;
        else failed = true;
      }
      io.stdout(
        flags.json
          ? `${JSON.stringify(result)}\n`
          : `${result.id}  ${result.scores.map((s) => `${s.pass ? '✓' : '✗'} ${s.name} ${s.score.toFixed(2)}${s.pass ? '' : ` (${s.error ?? s.reason ?? 'failed'})`}`).join('  ')}\n`,
      );
    }
  } finally {
    await store?.close();
  }
  if (scored === 0) {
    const where = store ? `stored runs${flags.agent ? ` of agent ${flags.agent}` : ''}` : sources.join(', ');
    const verb = store ? 'are none' : sources.length === 1 ? 'holds no events' : 'hold no events';
    io.stderr(`No run to score: ${where} ${verb}.\n`);
    return EXIT_CODES.noAnswer;
  }
  if (!flags.json) {
    for (const [name, t] of totals)
      io.stdout(`${name}: mean ${(t.n ? t.sum / t.n : 0).toFixed(3)} · passed ${t.passed}/${t.n}\n`);
  }
  return failed ? EXIT_CODES.noAnswer : EXIT_CODES.done;
}

/** Registers `thinkflow eval rescore`. */
export function registerEvalRescore(group: Command, io: EvalIo): void {
  const command = group
    .command('rescore')
    .description(
      'Score runs that already happened (trace files, or stored runs with --runs) with deterministic scorers; no model calls.',
    )
    .argument('[traces...]', 'JSONL trace files written with --trace or --traces')
    .option(
      '-s, --scorer <spec...>',
      'scorers: noError, contains:TEXT, regex:PAT, numeric:N±T, budget:steps=5,cost=0.01, toolCalls:FILE, trajectory:a,b@in-order',
    )
    .option('--runs', "score the server's stored runs (the data dir's SQLite, or --pg)")
    .option('--agent <name>', 'with --runs: only this agent’s runs')
    .option('--limit <n>', 'with --runs: at most this many, newest first (default 1000)')
    .option('--json', 'print one JSON line per run')
    .option('--pg <url>', 'with --runs: the PostgreSQL store')
    .option('--data-dir <dir>', 'where thinkflow keeps its data (default ~/.thinkflow)')
    .action(async (traces: string[], flags: EvalRescoreFlags) => {
      await exitWith(() => evalRescore(traces, flags, io), {
        command: 'thinkflow eval rescore',
        json: flags.json,
        color: io.color,
      });
    });
  addExamples(command, [
    [
      'budget and errors over last week’s traces',
      'thinkflow eval rescore traces/*.jsonl --scorer noError --scorer budget:steps=8,cost=0.02',
    ],
    ['the support agent’s stored runs', 'thinkflow eval rescore --runs --agent support --scorer noError'],
  ]);
}
