import type { RunStore } from '../records/index.js';
import { DEFAULT_PRUNE_BATCH, type PruneRequest } from '../records/index.js';

/** How long the server keeps finished runs. Unfinished, waiting and queued runs are always kept. */
export interface RetentionConfig {
  /** Days a finished run is kept after it was created and ended. Default 30; 0 keeps runs forever. Fractions allowed. */
  maxAgeDays?: number;
  /** Keep at most this many runs: finished runs older than the newest `maxRuns` go. Default: no limit. */
  maxRuns?: number;
  /** How often the pruner looks for expired runs. Default 60000 ms. */
  intervalMs?: number;
  /**
   * Runs deleted per transaction. Default: adapted so a batch takes about 10 ms (from 10 to 1000
   * runs): a SQLite batch runs on the server's own thread, and a live request waits for it.
   */
  batchSize?: number;
  /**
   * Least pause between two batches. Default 25 ms; a pause also lasts at least four times the batch
   * before it, so a backlog of any size takes at most a fifth of the time.
   */
  pauseMs?: number;
}

export const DEFAULT_RETENTION_DAYS = 30;
/** The first batch when the size adapts; each next one aims at `BATCH_MS`. */
const START_BATCH = 100;
const BATCH_MS = 10;

/** The size of the next batch, from how long this one took (halved at most, doubled at most). */
function nextBatch(limit: number, tookMs: number): number {
  const scaled = limit * Math.min(2, Math.max(0.5, BATCH_MS / Math.max(tookMs, 0.1)));
  return Math.round(Math.min(DEFAULT_PRUNE_BATCH * 2, Math.max(10, scaled)));
}
const DAY_MS = 86_400_000;

/** What to prune at `now`, or undefined when the config keeps everything. */
export function retentionRequest(config: RetentionConfig = {}, now = Date.now()): PruneRequest | undefined {
  const days = config.maxAgeDays ?? DEFAULT_RETENTION_DAYS;
  const request: PruneRequest = { limit: config.batchSize };
  if (days > 0) request.olderThan = now - days * DAY_MS;
  if (config.maxRuns !== undefined && config.maxRuns > 0) request.keepNewest = config.maxRuns;
  return request.olderThan === undefined && request.keepNewest === undefined ? undefined : request;
}

/** A background pruner. */
export interface Retention {
  /** Prunes every expired run now, batch by batch; resolves with how many were deleted. */
  prune(): Promise<number>;
  /** Stops the timer and waits for a batch in progress. */
  stop(): Promise<void>;
}

/**
 * Starts pruning expired runs in the background: every `intervalMs`, batches of `batchSize` runs
 * with a pause between them until none is left, so serving is never blocked for more than one small
 * transaction. One prune runs at a time in this process; PostgreSQL stores also take a lock, so API
 * servers sharing a database prune one at a time.
 *
 * @example
 * const retention = startRetention({ store, config: { maxAgeDays: 7 } });
 * // on shutdown
 * await retention.stop();
 */
export function startRetention(options: {
  store: RunStore;
  config?: RetentionConfig;
  onError?: (error: unknown) => void;
  /** Called after each batch that deleted runs. */
  onPruned?: (runs: number) => void;
}): Retention {
  const config = options.config ?? {};
  const intervalMs = config.intervalMs ?? 60_000;
  const pauseMs = config.pauseMs ?? 25;
  let stopped = false;
  let current: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;

  let adaptive = START_BATCH;

  async function pruneAll(): Promise<number> {
    let total = 0;
    while (!stopped) {
      const request = retentionRequest(config);
      if (!request) break;
      const limit = config.batchSize ?? adaptive;
      const started = performance.now();
      const { runs, skipped } = await options.store.pruneRuns({ ...request, limit });
      const took = performance.now() - started;
      if (runs > 0) {
        total += runs;
        options.onPruned?.(runs);
      }
      if (skipped || runs < limit) break;
      if (config.batchSize === undefined) adaptive = nextBatch(limit, took);
      await new Promise((resolve) => setTimeout(resolve, Math.max(pauseMs, took * 4)));
    }
    return total;
  }

  const prune = () => {
    current ??= pruneAll().finally(() => {
      current = undefined;
    });
    return current;
  };

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      prune()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => schedule(intervalMs));
    }, delay);
    // The pruner alone never keeps the process alive.
    timer.unref();
  };
  if (retentionRequest(config)) schedule(Math.min(intervalMs, 1_000));

  return {
    prune,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => {});
    },
  };
}
