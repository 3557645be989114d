import { randomUUID } from 'node:crypto';
import type { Job, Worker } from 'bullmq';
import { assertPeers, errorMessage } from '../../core/index.js';
import { backoffDelay, isDependencyUnavailable, stderrErrors } from '../health/index.js';
import type { QuestionBox, RunStore } from '../records/index.js';
import {
  type AgentEntry,
  isFinished,
  isRunQueueStore,
  type RunQueueStore,
  type RunRecord,
  resolveAgent,
} from '../records/index.js';
import { endUnstarted, executeRun } from '../runs/index.js';
import { agentQueueCounts } from './agent-queue-counts.js';
import { handBack, loadBullmq, lockOptions, type QueueLocation, queueSettings, type RunJob } from './queue-names.js';
import { runEndPublisher } from './run-ends.js';

export interface RunWorkerOptions extends QueueLocation {
  agents: Record<string, AgentEntry>;
  /** Shared with the API servers: PostgreSQL in practice. */
  store: RunStore;
  /** Runs executed at once by this worker. Default 16. */
  concurrency?: number;
  /** How often a run checks the store for a cancel or an answer. Default 1000 ms. */
  pollMs?: number;
  /**
   * How long a job's lock lasts; the worker renews it every half of this while the run goes on. A worker
   * that dies (kill -9, a lost machine) holds its runs this long before another takes them over.
   * Keep it well above the longest event-loop stall, or a busy worker loses its lock and the run is
   * taken over while it still runs. Default 30000 ms.
   */
  lockDurationMs?: number;
  /** How often this worker looks for runs whose worker died (expired locks). Default half of `lockDurationMs`. */
  stalledIntervalMs?: number;
  /**
   * How long the lease this worker holds in PostgreSQL on each of its runs lasts; it renews them every
   * third of this. A run whose lease expired (its worker died, or lost PostgreSQL for that long) is
   * re-enqueued by the API server's reconciler when Redis has no job for it. Default `lockDurationMs`.
   */
  leaseMs?: number;
  /** Where errors of background work go. Default: stderr, each distinct message once per 10 s with a count. */
  onError?: (error: unknown) => void;
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
  const waiting = agentQueueCounts(options, report);
  const ends = runEndPublisher(options, report);
  let stopping = false;
  const lockDuration = options.lockDurationMs ?? 30_000;
  const leaseMs = options.leaseMs ?? lockDuration;
  const owner = randomUUID();
  // Writes and reads wait through a PostgreSQL outage: a call's end is written late, never lost.
  const leases: (RunStore & RunQueueStore) | undefined = isRunQueueStore(store) ? store : undefined;
  leases?.waitThroughOutages();
  // The runs this worker executes, and one poll for all of them (one query, not one per run).
  const active = new Map<string, { controller: AbortController; box?: QuestionBox }>();
  let polling = false;
  const poll = setInterval(() => {
    if (polling || active.size === 0) return;
    polling = true;
    store
      .getRuns([...active.keys()])
      .then((latest) => {
        for (const run of latest) {
          const running = active.get(run.id);
          if (run.cancelRequested) running?.controller.abort();
          running?.box?.sync(run.questions);
        }
      })
      .catch(report)
      .finally(() => {
        polling = false;
      });
  }, options.pollMs ?? 1000);
  const renew = setInterval(
    () => {
      if (active.size > 0) leases?.renewLeases([...active.keys()], owner, leaseMs).catch(() => {});
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );

  async function process(job: Job<RunJob>, token?: string): Promise<void> {
    let outcome: 'ended' | 'held' | 'stopped';
    try {
      outcome = await execute(job.data);
    } catch (error) {
      // Redis or PostgreSQL went away under the job: not the run's failure.
      if (!isDependencyUnavailable(error)) throw error;
      report(error);
      return handBack(job, token, backoffDelay(job.attemptsStarted ?? 0, { baseMs: 1000, maxMs: 30_000 }));
    }
    // The run's writes are committed: whoever waits on it reads the store now.
    if (outcome === 'ended') ends.publish(job.data.runId).catch(report);
    // Another live worker holds the run: look again once its lease could have run out.
    if (outcome === 'held') return handBack(job, token, Math.ceil(leaseMs / 2));
    if (outcome === 'stopped') return handBack(job, token, 0);
  }

  async function execute(job: RunJob): Promise<'ended' | 'held' | 'stopped'> {
    const run = await store.getRun(job.runId);
    // Taken by a worker, the run no longer counts against its agent's queue limit (a count left
    // behind by a Redis blip is rebuilt by the reconciler).
    const agent = job.agent ?? run?.agent;
    if (agent) waiting.remove(agent, job.runId).catch(report);
    if (!run || isFinished(run.status)) return 'ended';
    if (leases && !(await leases.claimLease(run.id, owner, leaseMs))) return 'held';
    try {
      return await executeClaimed(run);
    } finally {
      leases?.releaseLeases([run.id], owner).catch(() => {});
    }
  }

  async function executeClaimed(run: RunRecord): Promise<'ended' | 'stopped'> {
    if (run.cancelRequested) {
      await endUnstarted(store, run, 'Cancelled before it started.');
      return 'ended';
    }
    const entry = options.agents[run.agent];
    if (!entry) {
      await endUnstarted(store, run, `The worker has no agent named "${run.agent}".`, 'failed');
      return 'ended';
    }
    const controller = new AbortController();
    const running: { controller: AbortController; box?: QuestionBox } = { controller };
    active.set(run.id, running);
    try {
      const result = await executeRun({
        agent: await resolveAgent(entry),
        run,
        store,
        signal: controller.signal,
        onQuestions: (box) => {
          running.box = box;
        },
        isStopping: () => stopping,
        onError: report,
        // Still queued, it never ran: no log or checkpoint to read (its first write marks it running).
        // A fork has one: the first checkpoint it was started with.
        fresh: run.status === 'queued' && !run.forkedFrom,
      });
      // Stopped by a shutdown: the caller puts the job back on the queue, and another worker resumes it.
      return result ? 'ended' : 'stopped';
    } finally {
      active.delete(run.id);
    }
  }

  const worker = new (loadBullmq().Worker as typeof Worker<RunJob>)(settings.name, process, {
    ...settings.options,
    concurrency: options.concurrency ?? 16,
    ...lockOptions(options),
    // A run's own failures retry with a capped backoff; outages do not spend attempts at all.
    settings: {
      backoffStrategy: (attemptsMade: number) => backoffDelay(attemptsMade, { baseMs: 1000, maxMs: 60_000 }),
    },
  });
  worker.on('error', report);
  // A worker that cannot reach PostgreSQL takes no new jobs until it answers again (its running runs
  // wait in their commits meanwhile), instead of taking jobs only to fail them.
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
    if (stopping) return;
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
  worker.on('failed', (_job, error) => {
    if (!stopping) report(new Error(`Run job failed: ${errorMessage(error)}`));
  });

  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        stopping = true;
        const closing = worker.close();
        for (const { controller } of active.values()) controller.abort();
        await closing;
        clearInterval(poll);
        clearInterval(renew);
        clearTimeout(probing);
        await waiting.close();
        await ends.close();
      })();
      return closed;
    },
  };
}
