import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { assertPeers, errorMessage } from '../../core/index.js';
import { backoffDelay, stderrErrors } from '../health/index.js';
import { type AgentEntry, isRunQueueStore, type RunStore } from '../records/index.js';
import { agentQueueCounts } from './agent-queue-counts.js';
import { loadBullmq, lockOptions, queueSettings, type RunJob, type WorkerOptions } from './queue-names.js';
import { runEndPublisher } from './run-ends.js';
import { pollActive, processJob, type RunWorkerContext, renewLeases } from './run-worker-jobs.js';

/** Options of `createRunWorker`. */
export interface RunWorkerOptions extends WorkerOptions {
  agents: Record<string, AgentEntry>;
  /** Shared with the API servers: PostgreSQL in practice. */
  store: RunStore;
  /** How often a run checks the store for a cancel or an answer. Default 1000 ms. */
  pollMs?: number;
  /**
   * How long the lease this worker holds in PostgreSQL on each of its runs lasts; it renews them every
   * third of this. A run whose lease expired (its worker died, or lost PostgreSQL for that long) is
   * re-enqueued by the API server's reconciler when Redis has no job for it. Default `lockDurationMs`.
   */
  leaseMs?: number;
}

export interface RunWorker {
  /** Stops taking jobs; running runs are checkpointed and go back on the queue for another worker. */
  close(): Promise<void>;
}

/**
 * A `thinkflow worker`: takes run jobs from BullMQ and executes them against the shared store,
 * resuming from the last checkpoint when a previous worker died mid-run.
 */
export function createRunWorker(options: RunWorkerOptions): RunWorker {
  assertPeers('queue');
  const { store } = options;
  const settings = queueSettings(options);
  const report = options.onError ?? stderrErrors('thinkflow worker');
  const lockDuration = options.lockDurationMs ?? 30_000;
  // Writes and reads wait through a PostgreSQL outage: a call's end is written late, never lost.
  const leases = isRunQueueStore(store) ? store : undefined;
  leases?.waitThroughOutages();
  const ctx: RunWorkerContext = {
    agents: options.agents,
    store,
    pollMs: options.pollMs ?? 1000,
    report,
    waiting: agentQueueCounts(options, report),
    ends: runEndPublisher(options, report),
    owner: randomUUID(),
    leaseMs: options.leaseMs ?? lockDuration,
    leases,
    active: new Map(),
    stopping: false,
  };
  const poll = pollActive(ctx);
  const renew = renewLeases(ctx);
  const worker = new (loadBullmq().Worker as typeof Worker<RunJob>)(
    settings.name,
    (job, token) => processJob(ctx, job, token),
    {
      ...settings.options,
      concurrency: options.concurrency ?? 16,
      ...lockOptions(options),
      // A run's own failures retry with a capped backoff; outages do not spend attempts at all.
      settings: {
        backoffStrategy: (attemptsMade: number) => backoffDelay(attemptsMade, { baseMs: 1000, maxMs: 60_000 }),
      },
    },
  );
  worker.on('error', report);
  const outage = pauseThroughOutages(ctx, worker);
  worker.on('failed', (_job, error) => {
    if (!ctx.stopping) report(new Error(`Run job failed: ${errorMessage(error)}`));
  });

  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        ctx.stopping = true;
        const closing = worker.close();
        for (const { controller } of ctx.active.values()) controller.abort();
        await closing;
        clearInterval(poll);
        clearInterval(renew);
        outage.stop();
        await ctx.waiting.close();
        await ctx.ends.close();
      })();
      return closed;
    },
  };
}

/**
 * A worker that cannot reach PostgreSQL takes no new jobs until it answers again (its running runs
 * wait in their commits meanwhile), instead of taking jobs only to fail them.
 */
function pauseThroughOutages(ctx: RunWorkerContext, worker: Worker<RunJob>): { stop(): void } {
  const { leases, report } = ctx;
  let probing: NodeJS.Timeout | undefined;
  const probe = (attempt: number) => {
    probing = setTimeout(
      () => {
        leases?.ping().then(
          () => {
            probing = undefined;
          },
          () => probe(attempt + 1),
        );
      },
      backoffDelay(attempt, { baseMs: 200, maxMs: 2000 }),
    );
  };
  let downSince = 0;
  leases?.onOutage((down) => {
    if (ctx.stopping) return;
    if (down) {
      downSince = Date.now();
      report(new Error('PostgreSQL is unreachable: taking no new jobs; running runs wait to write.'));
      worker.pause(true).catch(report);
      if (!probing) probe(0);
    } else {
      clearTimeout(probing);
      probing = undefined;
      report(new Error(`PostgreSQL answers again after ${Date.now() - downSince} ms: taking jobs again.`));
      void worker.resume();
    }
  });
  return { stop: () => clearTimeout(probing) };
}
