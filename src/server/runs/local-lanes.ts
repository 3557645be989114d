import { redactedIfSecret } from '../../core/index.js';
import { agentLimits, type ServerLimits } from '../health/index.js';
import type { AgentEntry, QuestionBox, RunRecord, RunStore } from '../records/index.js';
import { queuedRun, queueFull, resolveAgent, type StartRequest, type StartResult } from '../records/index.js';
import { type ChangeSignal, createChangeSignal } from './change-signal.js';
import { executeRun } from './execute-run.js';

/** An agent's runs in this process: how many execute, and those waiting for a slot. */
interface Lane {
  active: number;
  queue: { run: RunRecord; fresh: boolean }[];
}

/** How a run of this process ended: the run as stored, or undefined when it did not end (a shutdown). */
type Ending = RunRecord | undefined;

/** What the local run service's steps work with. */
export interface LocalRunsContext {
  agents: Record<string, AgentEntry>;
  store: RunStore;
  limits?: ServerLimits;
  onError: (error: unknown) => void;
  signal: ChangeSignal;
  lanes: Map<string, Lane>;
  controllers: Map<string, AbortController>;
  boxes: Map<string, QuestionBox>;
  /** The executions in flight. */
  running: Set<Promise<void>>;
  /** Runs of this process that have not ended yet: `wait` awaits these instead of polling the store. */
  endings: Map<string, { promise: Promise<Ending>; resolve: (run: Ending) => void }>;
  /** Set by `close`: nothing new starts, and runs still going stay unfinished to resume next start. */
  stopping: boolean;
}

export function localRunsContext(
  options: Pick<LocalRunsContext, 'agents' | 'store' | 'limits' | 'onError'>,
): LocalRunsContext {
  return {
    ...options,
    signal: createChangeSignal(),
    lanes: new Map(),
    controllers: new Map(),
    boxes: new Map(),
    running: new Set(),
    endings: new Map(),
    stopping: false,
  };
}

/** Marks the run as one of this process, whose end `wait` can await. */
export function track(ctx: LocalRunsContext, id: string): void {
  let resolve: (run: Ending) => void = () => {};
  const promise = new Promise<Ending>((r) => {
    resolve = r;
  });
  ctx.endings.set(id, { promise, resolve });
}

export function ended(ctx: LocalRunsContext, id: string, run?: RunRecord): void {
  ctx.endings.get(id)?.resolve(run);
  ctx.endings.delete(id);
}

export function lane(ctx: LocalRunsContext, agent: string): Lane {
  let found = ctx.lanes.get(agent);
  if (!found) {
    found = { active: 0, queue: [] };
    ctx.lanes.set(agent, found);
  }
  return found;
}

/** Starts the agent's waiting runs while it has free slots. */
export function pump(ctx: LocalRunsContext, agent: string): void {
  const own = lane(ctx, agent);
  const { concurrent } = agentLimits(ctx.limits, agent);
  while (!ctx.stopping && own.active < concurrent && own.queue.length > 0) {
    const next = own.queue.shift()!;
    own.active += 1;
    const task = execute(ctx, next.run, next.fresh).finally(() => {
      own.active -= 1;
      ctx.running.delete(task);
      pump(ctx, agent);
    });
    ctx.running.add(task);
  }
}

async function execute(ctx: LocalRunsContext, run: RunRecord, fresh: boolean): Promise<void> {
  const controller = new AbortController();
  ctx.controllers.set(run.id, controller);
  let final: RunRecord | undefined;
  try {
    const agent = await resolveAgent(ctx.agents[run.agent], { run, store: ctx.store });
    await executeRun({
      agent,
      run,
      store: ctx.store,
      fresh,
      signal: controller.signal,
      onChange: (id) => ctx.signal.notify(id),
      onQuestions: (box) => ctx.boxes.set(run.id, box),
      isStopping: () => ctx.stopping,
      onError: ctx.onError,
      onEnd: (stored) => {
        final = stored;
      },
    });
  } catch (error) {
    ctx.onError(error);
  } finally {
    ctx.controllers.delete(run.id);
    ctx.boxes.delete(run.id);
    ended(ctx, run.id, final);
    ctx.signal.notify(run.id);
  }
}

/** Queues a new run under `id` for its agent's lane (refused when the lane is full or the service stops). */
export async function startInLane(ctx: LocalRunsContext, request: StartRequest, id: string): Promise<StartResult> {
  const { agents, limits, store, onError } = ctx;
  const { agent } = request;
  if (!Object.hasOwn(agents, agent)) return { ok: false, reason: 'unknown_agent' };
  const own = lane(ctx, agent);
  const { concurrent, queued } = agentLimits(limits, agent);
  if (ctx.stopping || (own.active >= concurrent && own.queue.length >= queued)) {
    return queueFull(limits);
  }
  const run = queuedRun(request, id);
  track(ctx, run.id);
  // A fork resumes from its first checkpoint, written with the run.
  own.queue.push({ run, fresh: !request.fork });
  // Committed with the first events in one transaction; reads always see it.
  void store.createRun(run).catch(onError);
  if (request.fork) void store.saveCheckpoint({ ...request.fork, runId: id }).catch(onError);
  pump(ctx, agent);
  // The caller gets the run as the store keeps it; the queued copy keeps the input as given.
  return { ok: true, run: redactedIfSecret(run) };
}
