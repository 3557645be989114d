import type { Worker } from 'bullmq';
import { assertPeers, errorMessage } from '../core/index.js';
import { agentQueueCounts } from './agent-queue-counts.js';
import { executeRun } from './execute-run.js';
import type { QuestionBox } from './question-box.js';
import { loadBullmq, type QueueLocation, queueSettings, type RunJob } from './queue-names.js';
import { runEndPublisher } from './run-ends.js';
import { isFinished } from './run-record.js';
import { type AgentEntry, resolveAgent } from './servable-agent.js';
import type { RunStore } from './stores/run-store.js';
import { endUnstarted } from './synthetic-result.js';

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
  const waiting = agentQueueCounts(options);
  const ends = runEndPublisher(options);
  let stopping = false;
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
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        polling = false;
      });
  }, options.pollMs ?? 1000);

  async function process(job: { data: RunJob }): Promise<void> {
    try {
      await execute(job.data);
    } finally {
      // The run's writes are committed: whoever waits on it reads the store now.
      ends.publish(job.data.runId).catch((error: unknown) => options.onError?.(error));
    }
  }

  async function execute(job: RunJob): Promise<void> {
    const run = await store.getRun(job.runId);
    // Taken by a worker, the run no longer counts against its agent's queue limit.
    const agent = job.agent ?? run?.agent;
    if (agent) await waiting.remove(agent, job.runId);
    if (!run || isFinished(run.status)) return;
    if (run.cancelRequested) return endUnstarted(store, run, 'Cancelled before it started.');
    const entry = options.agents[run.agent];
    if (!entry) return endUnstarted(store, run, `The worker has no agent named "${run.agent}".`, 'failed');
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
        onError: options.onError,
        // Still queued, it never ran: no log or checkpoint to read (its first write marks it running).
        fresh: run.status === 'queued',
      });
      // Failing the job puts it back on the queue (it has attempts to spare), so another worker resumes it.
      if (!result) throw new Error('Worker stopped; the run resumes from its checkpoint.');
    } finally {
      active.delete(run.id);
    }
  }

  const lockDuration = options.lockDurationMs ?? 30_000;
  const worker = new (loadBullmq().Worker as typeof Worker<RunJob>)(settings.name, process, {
    ...settings.options,
    concurrency: options.concurrency ?? 16,
    lockDuration,
    stalledInterval: options.stalledIntervalMs ?? Math.max(500, Math.floor(lockDuration / 2)),
    maxStalledCount: 100,
  });
  worker.on('error', (error) => options.onError?.(error));
  worker.on('failed', (_job, error) => {
    if (!stopping) options.onError?.(new Error(`Run job failed: ${errorMessage(error)}`));
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
        await waiting.close();
        await ends.close();
      })();
      return closed;
    },
  };
}
