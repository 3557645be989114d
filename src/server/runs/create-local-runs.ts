import { writeStderr } from '../../core/index.js';
import type { ServerLimits } from '../health/index.js';
import type { AgentEntry, RunRecord, RunService, RunStore } from '../records/index.js';
import { rewindRunWorkspace, sharesThreadWorkspace } from '../workspaces/index.js';
import { waitForEnd } from './follow-run.js';
import { ended, type LocalRunsContext, lane, localRunsContext, pump, startInLane, track } from './local-lanes.js';
import { storeRuns } from './store-runs.js';
import { endUnstarted } from './synthetic-result.js';

export interface LocalRunsOptions {
  agents: Record<string, AgentEntry>;
  store: RunStore;
  limits?: ServerLimits;
  /** Where failures with no caller go (a store that cannot write). Default: stderr. */
  onError?: (error: unknown) => void;
}

/** A run service that also resumes the runs a previous process left unfinished. */
export interface LocalRuns extends RunService {
  fork: NonNullable<RunService['fork']>;
  rewind: NonNullable<RunService['rewind']>;
  /** Re-queues every unfinished run of a known agent from its last checkpoint; returns how many. */
  resumeUnfinished(): Promise<number>;
}

/**
 * Executes runs in this process, at most `maxConcurrentRuns` per agent with a bounded queue behind,
 * logging events and checkpoints to the store.
 */
export function createLocalRuns(options: LocalRunsOptions): LocalRuns {
  const { agents, store, limits } = options;
  const onError = options.onError ?? ((error: unknown) => writeStderr(`thinkflow server: ${String(error)}\n`));
  const ctx = localRunsContext({ agents, store, limits, onError });
  const service: LocalRuns = {
    ...storeRuns({
      store,
      limits,
      startNew: (request, id) => startInLane(ctx, request, id),
      oneRunPerThread: (agent) => Object.hasOwn(agents, agent) && sharesThreadWorkspace(agents[agent]),
    }),
    agentNames: () => Object.keys(agents),
    changed: (id, timeoutMs) => ctx.signal.wait(id, timeoutMs),
    wait: (id, abort) => waitLocal(ctx, service, id, abort),
    cancel: (id) => cancelLocal(ctx, service, id),
    async answer(id, { questionId, ...answer }) {
      const box = ctx.boxes.get(id);
      if (box) return box.answer(answer, questionId) ? 'answered' : 'no_question';
      return (await store.getRun(id)) ? 'no_question' : 'not_found';
    },
    async rewind(id, step) {
      const run = await store.getRun(id);
      if (!run) return { ok: false, reason: 'unknown_run', message: `No run with id "${id}".` };
      const entry = Object.hasOwn(agents, run.agent) ? agents[run.agent] : undefined;
      return rewindRunWorkspace({ entry, store, run, step });
    },
    resumeUnfinished: () => resumeUnfinished(ctx),
    close: (closing) => closeLocal(ctx, closing?.timeoutMs),
  };
  return service;
}

/** Awaits a run of this process without polling; another one is read from the store until it ends. */
async function waitLocal(
  ctx: LocalRunsContext,
  service: RunService,
  id: string,
  abort?: AbortSignal,
): Promise<RunRecord | undefined> {
  const ending = ctx.endings.get(id);
  if (!ending) return waitForEnd(service, id, abort);
  if (abort?.aborted) return ctx.store.getRun(id);
  // The listener goes once the run ends: a long-lived signal (a connection's, a caller's) would
  // otherwise keep every run it ever waited on reachable.
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    abort?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return (await Promise.race([ending.promise, aborted])) ?? (await ctx.store.getRun(id));
  } finally {
    abort?.removeEventListener('abort', onAbort);
  }
}

/** Aborts a running run and waits for its end; one still in its lane's queue ends there, never started. */
async function cancelLocal(ctx: LocalRunsContext, service: RunService, id: string): Promise<RunRecord | undefined> {
  const controller = ctx.controllers.get(id);
  if (controller) {
    controller.abort();
    return waitForEnd(service, id);
  }
  const run = await ctx.store.getRun(id);
  if (!run) return undefined;
  for (const own of ctx.lanes.values()) {
    const index = own.queue.findIndex((entry) => entry.run.id === id);
    if (index >= 0) {
      own.queue.splice(index, 1);
      await endUnstarted(ctx.store, run, 'Cancelled before it started.');
      ended(ctx, id);
      ctx.signal.notify(id);
    }
  }
  return ctx.store.getRun(id);
}

async function resumeUnfinished(ctx: LocalRunsContext): Promise<number> {
  const runs = await ctx.store.listRuns({ status: ['queued', 'running', 'waiting'] });
  let count = 0;
  for (const run of runs) {
    if (!Object.hasOwn(ctx.agents, run.agent) || ctx.controllers.has(run.id)) continue;
    track(ctx, run.id);
    lane(ctx, run.agent).queue.push({ run, fresh: false });
    count += 1;
  }
  for (const agent of ctx.lanes.keys()) pump(ctx, agent);
  return count;
}

async function closeLocal(ctx: LocalRunsContext, timeoutMs = 10_000): Promise<void> {
  ctx.stopping = true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.allSettled([...ctx.running]), timeout]);
  clearTimeout(timer);
  // Runs still going are aborted; with `stopping` set they stay unfinished and resume next start.
  for (const controller of ctx.controllers.values()) controller.abort();
  await Promise.allSettled([...ctx.running]);
}
