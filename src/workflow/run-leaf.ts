/**
 * One leaf step, run here: its context, its output check, its checkpoint (done or suspended) and its
 * events. The engine (`run-nodes.ts`) runs a local run's steps with it, a queue worker a job's one.
 * A plain function step on a store that writes at once finishes without a microtask.
 */
import { type AgentEvent, andThen, isThenable, type MaybePromise, type RunUsage } from '../core/index.js';
import type { DurableState } from './create-step.js';
import type { RunStop } from './run-lease.js';
import type {
  AnyStep,
  StepContext,
  StepRecord,
  SuspendedStep,
  WorkflowRunRecord,
  WorkflowStore,
} from './workflow-types.js';

/** What running a node (or a list of them) came to: a value, or a wait for a resume. */
export type Outcome = { type: 'value'; value: unknown } | { type: 'suspended' };

export const SUSPENDED: Outcome = { type: 'suspended' };

/** A step's `suspend()` throws this; the engine catches it and checkpoints the wait. */
class Suspend {
  constructor(readonly payload: unknown) {}
}

function suspend(payload?: unknown): never {
  throw new Suspend(payload);
}

/** An agent step's own checkpoint, under `<path>~state` (made when a step asks for it). */
class StepState implements DurableState {
  constructor(
    private readonly ctx: LeafContext,
    private readonly path: string,
  ) {}
  get previous(): unknown {
    return (this.ctx.steps[`${this.path}~state`] as { value?: unknown } | undefined)?.value;
  }
  async save(value: unknown): Promise<void> {
    await this.ctx.store.saveStep(this.ctx.run.id, `${this.path}~state`, { status: 'marker', value });
  }
}

/**
 * What a leaf step's `run` gets. A class, made once per step: the signal and the durable state are
 * made only for the steps that read them (an object literal with getters costs ~0.7 µs to make in V8).
 */
class LeafStepContext implements StepContext {
  readonly runId: string;
  readonly workflowId: string;
  readonly stepId: string;
  readonly path: string;
  readonly resumeData: unknown;
  readonly emit: (event: AgentEvent) => void;
  // Fields, not methods, so a step may take them apart (`const { addUsage } = ctx`).
  readonly addUsage: (usage: RunUsage) => void;
  readonly suspend = suspend;
  private state: StepState | undefined;
  constructor(private readonly leaf: LeafRun) {
    const { ctx, call } = leaf;
    this.runId = ctx.run.id;
    this.workflowId = ctx.run.workflowId;
    this.stepId = call.step.id;
    this.path = call.path;
    this.resumeData = call.resume?.payload;
    this.emit = ctx.emit ?? noop;
    this.addUsage = (more) => addUsage(leaf.usage, more);
  }
  get signal(): AbortSignal {
    return this.leaf.ctx.stop.signal;
  }
  /** Only agent steps keep state of their own. */
  get durable(): DurableState {
    this.state ??= new StepState(this.leaf.ctx, this.path);
    return this.state;
  }
}

/** Thrown for a value that does not fit a step: names the step and where the value came from. */
export class StepInputError extends Error {
  override name = 'StepInputError';
}

/** What running one leaf step needs of the engine: a worker builds it for the one step a job names. */
export interface LeafContext {
  run: Pick<WorkflowRunRecord, 'id' | 'workflowId'>;
  store: Pick<WorkflowStore, 'saveStep'>;
  /** The run's checkpoints by path; the step's own goes in here as well as to the store. */
  steps: Record<string, StepRecord>;
  usage: RunUsage;
  suspended: SuspendedStep[];
  /** Absent when nobody listens: events are then not even built. */
  emit?: (event: AgentEvent) => void;
  /** Stops on a cancel (the lease's, and the caller's signal). */
  stop: RunStop;
}

/** One leaf step to run: its validated input, its number in the run's events, and the resume it is for. */
export interface LeafCall {
  step: AnyStep;
  path: string;
  input: unknown;
  n: number;
  resume?: { payload: unknown };
}

/**
 * Runs a leaf step here: its `run` with a StepContext, the output check, the checkpoint (done or
 * suspended, in `ctx.steps` and the store) and its events. The engine calls it for a local run, a
 * queue worker for a step job: one path either way.
 */
export function runLeaf(ctx: LeafContext, call: LeafCall): MaybePromise<Outcome> {
  const { step, path, n } = call;
  const leaf: LeafRun = { ctx, call, usage: emptyUsage(), started: Date.now() };
  ctx.emit?.(event(ctx, 'step_start', { step: n, stepId: step.id, path }));
  let outcome: MaybePromise<Outcome>;
  try {
    const returned = step.run(call.input, new LeafStepContext(leaf));
    // A plain function step returns its value: no microtask for it. An async one is given up on a
    // cancel even if it ignores its signal.
    outcome = isThenable(returned)
      ? untilAborted(returned, ctx.stop.signal).then((output) => finishLeaf(leaf, output))
      : finishLeaf(leaf, returned);
  } catch (error) {
    return leafFailed(leaf, error);
  }
  return isThenable(outcome) ? Promise.resolve(outcome).then(undefined, (error) => leafFailed(leaf, error)) : outcome;
}

/** One leaf step under way: what finishing it (done, suspended or failed) needs. */
interface LeafRun {
  ctx: LeafContext;
  call: LeafCall;
  /** The step's own usage (an agent step's model calls), added to the run's once it ends. */
  usage: RunUsage;
  started: number;
}

/** Checks the step's output, checkpoints it and tells the stream: the step is done. */
function finishLeaf(leaf: LeafRun, output: unknown): MaybePromise<Outcome> {
  const { ctx, call, usage } = leaf;
  const { step, path } = call;
  const checked = step.output.safeParse(output);
  if (!checked.success)
    throw new StepInputError(
      `Step "${step.id}" (${path}) returned an output its schema refuses: ${issues(checked.error)}`,
    );
  const record: StepRecord = { status: 'done', output: checked.data, usage };
  ctx.steps[path] = record;
  return andThen(ctx.store.saveStep(ctx.run.id, path, record), () => {
    addUsage(ctx.usage, usage);
    ctx.emit?.(
      event(ctx, 'step_end', {
        step: call.n,
        stepId: step.id,
        path,
        ms: Date.now() - leaf.started,
        ok: true,
        output: checked.data,
      }),
    );
    return { type: 'value', value: checked.data };
  });
}

/** A step that threw: a `suspend()` is checkpointed as a wait, any other error ends the step (and is rethrown). */
function leafFailed(leaf: LeafRun, error: unknown): MaybePromise<Outcome> {
  const { ctx, call, usage } = leaf;
  const { step, path, n } = call;
  if (error instanceof Suspend) {
    addUsage(ctx.usage, usage);
    return andThen(save(ctx, path, { status: 'suspended', stepId: step.id, payload: error.payload }), () => {
      ctx.suspended.push({ path, stepId: step.id, payload: error.payload });
      ctx.emit?.(event(ctx, 'step_suspended', { step: n, stepId: step.id, path, payload: error.payload }));
      return SUSPENDED;
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.emit?.(
    event(ctx, 'step_end', {
      step: n,
      stepId: step.id,
      path,
      ms: Date.now() - leaf.started,
      ok: false,
      error: message,
    }),
  );
  throw error;
}

export function save(
  ctx: Pick<LeafContext, 'run' | 'steps' | 'store'>,
  path: string,
  record: StepRecord,
): MaybePromise<void> {
  ctx.steps[path] = record;
  return ctx.store.saveStep(ctx.run.id, path, record);
}

/** A zod error as one line a person reads: `score: Too big: expected number to be <=5; name: Required`. */
export function issues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`).join('; ');
}

export function event<T extends AgentEvent['type']>(
  ctx: { run: { id: string } },
  type: T,
  fields: Omit<Extract<AgentEvent, { type: T }>, 'type' | 'runId' | 'ts'>,
): AgentEvent {
  return { type, runId: ctx.run.id, ts: Date.now(), ...fields } as AgentEvent;
}

const noop = () => {};

export function emptyUsage(): RunUsage {
  return { promptTokens: 0, completionTokens: 0, llmCalls: 0 };
}

export function addUsage(into: RunUsage, more: RunUsage): void {
  into.promptTokens += more.promptTokens;
  into.completionTokens += more.completionTokens;
  into.llmCalls += more.llmCalls;
  if (more.estimated) into.estimated = true;
  if (more.costUsd !== undefined) into.costUsd = (into.costUsd ?? 0) + more.costUsd;
}

/** `promise`, or its signal's reason once that aborts first (the promise is left to settle unheard). */
export function untilAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
