import type { Job } from 'bullmq';
import { backoffDelay, isDependencyUnavailable } from '../health/index.js';
import {
  type AgentEntry,
  isFinished,
  type QuestionBox,
  type RunQueueStore,
  type RunRecord,
  type RunStore,
  resolveAgent,
} from '../records/index.js';
import { endUnstarted, executeRun } from '../runs/index.js';
import type { AgentQueueCounts } from './agent-queue-counts.js';
import { handBack, type RunJob } from './queue-names.js';
import type { RunEnds } from './run-ends.js';

/** What a worker's job steps work with. */
export interface RunWorkerContext {
  agents: Record<string, AgentEntry>;
  store: RunStore;
  /** How often a run checks the store for a cancel or an answer. */
  pollMs: number;
  report: (error: unknown) => void;
  waiting: AgentQueueCounts;
  ends: RunEnds;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs: number;
  /** The store's leases, when it keeps them (PostgreSQL). */
  leases?: RunStore & RunQueueStore;
  /** The runs this worker executes. */
  active: Map<string, { controller: AbortController; box?: QuestionBox }>;
  /** Set by `close`: a run stopped now goes back on the queue for another worker. */
  stopping: boolean;
}

/** Runs one job, and hands it back to the queue when it cannot run here now. */
export async function processJob(ctx: RunWorkerContext, job: Job<RunJob>, token?: string): Promise<void> {
  let outcome: 'ended' | 'held' | 'stopped';
  try {
    outcome = await executeJob(ctx, job.data);
  } catch (error) {
    // Redis or PostgreSQL went away under the job: not the run's failure.
    if (!isDependencyUnavailable(error)) throw error;
    ctx.report(error);
    return handBack(job, token, backoffDelay(job.attemptsStarted ?? 0, { baseMs: 1000, maxMs: 30_000 }));
  }
  // The run's writes are committed: whoever waits on it reads the store now.
  if (outcome === 'ended') ctx.ends.publish(job.data.runId).catch(ctx.report);
  // Another live worker holds the run: look again once its lease could have run out.
  if (outcome === 'held') return handBack(job, token, Math.ceil(ctx.leaseMs / 2));
  if (outcome === 'stopped') return handBack(job, token, 0);
}

async function executeJob(ctx: RunWorkerContext, job: RunJob): Promise<'ended' | 'held' | 'stopped'> {
  const { store, leases, owner } = ctx;
  const run = await store.getRun(job.runId);
  // Taken by a worker, the run no longer counts against its agent's queue limit (a count left
  // behind by a Redis blip is rebuilt by the reconciler).
  const agent = job.agent ?? run?.agent;
  if (agent) ctx.waiting.remove(agent, job.runId).catch(ctx.report);
  if (!run || isFinished(run.status)) return 'ended';
  if (leases && !(await leases.claimLease(run.id, owner, ctx.leaseMs))) return 'held';
  try {
    return await executeClaimed(ctx, run);
  } finally {
    leases?.releaseLeases([run.id], owner).catch(() => {});
  }
}

async function executeClaimed(ctx: RunWorkerContext, run: RunRecord): Promise<'ended' | 'stopped'> {
  const { store, active } = ctx;
  if (run.cancelRequested) {
    await endUnstarted(store, run, 'Cancelled before it started.');
    return 'ended';
  }
  const entry = ctx.agents[run.agent];
  if (!entry) {
    await endUnstarted(store, run, `The worker has no agent named "${run.agent}".`, 'failed');
    return 'ended';
  }
  const controller = new AbortController();
  const running: { controller: AbortController; box?: QuestionBox } = { controller };
  active.set(run.id, running);
  try {
    const result = await executeRun({
      agent: await resolveAgent(entry, { run, store }),
      run,
      store,
      signal: controller.signal,
      onQuestions: (box) => {
        running.box = box;
      },
      isStopping: () => ctx.stopping,
      onError: ctx.report,
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

/** One poll for all the worker's runs (one query, not one per run): a cancel aborts, answers reach the box. */
export function pollActive(ctx: RunWorkerContext): NodeJS.Timeout {
  let polling = false;
  return setInterval(() => {
    if (polling || ctx.active.size === 0) return;
    polling = true;
    ctx.store
      .getRuns([...ctx.active.keys()])
      .then((latest) => {
        for (const run of latest) {
          const running = ctx.active.get(run.id);
          if (run.cancelRequested) running?.controller.abort();
          running?.box?.sync(run.questions);
        }
      })
      .catch(ctx.report)
      .finally(() => {
        polling = false;
      });
  }, ctx.pollMs);
}

/** Renews the leases of the worker's runs every third of a lease. */
export function renewLeases(ctx: RunWorkerContext): NodeJS.Timeout {
  return setInterval(
    () => {
      if (ctx.active.size > 0) ctx.leases?.renewLeases([...ctx.active.keys()], ctx.owner, ctx.leaseMs).catch(() => {});
    },
    Math.max(100, Math.floor(ctx.leaseMs / 3)),
  );
}
