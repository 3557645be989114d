import { DEFAULT_PRUNE_BATCH, type PruneRequest } from './stores/run-listing.js';
import type { RunStore } from './stores/run-store.js';

/** How long the server keeps finished runs. Unfinished, waiting and queued runs are always kept. */
export interface RetentionConfig {
  /** Days a finished run is kept after it was created and ended. Default 30; 0 keeps runs forever. Fractions allowed. */
  maxAgeDays?: number;
  /** Keep at most this many runs: finished runs older than the newest `maxRuns` go. Default: no limit. */
  maxRuns?: number;
  /** How often the pruner looks for expired runs. Default 60000 ms. */
  intervalMs?: number;
  /** Runs deleted per transaction. Default 500. */
  batchSize?: number;
  /** Pause between two batches, so a large backlog never holds the store for long. Default 25 ms. */
  pauseMs?: number;
}

export const DEFAULT_RETENTION_DAYS = 30;
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

  async function pruneAll(): Promise<number> {
    let total = 0;
    while (!stopped) {
      const request = retentionRequest(config);
      if (!request) break;
      const { runs, skipped } = await options.store.pruneRuns(request);
      if (runs > 0) {
        total += runs;
        options.onPruned?.(runs);
      }
      if (skipped || runs < (request.limit ?? DEFAULT_PRUNE_BATCH)) break;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
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
