import { type AgentEvent, type RunError, withFields } from '../core/index.js';
import { emptyUsage, issues, StepInputError } from './run-leaf.js';
import { cancelCarried, type HeldRun, holdRun, type RunStop, SignalStop } from './run-lease.js';
import { type EngineContext, runNodes } from './run-nodes.js';
import type {
  AnyStep,
  ResumeRequest,
  StepRecord,
  WorkflowNode,
  WorkflowResult,
  WorkflowRunOptions,
  WorkflowRunRecord,
  WorkflowShape,
  WorkflowStatus,
  WorkflowStore,
} from './workflow-types.js';

/** What a committed workflow keeps to run itself. */
export interface WorkflowRuntime {
  shape: WorkflowShape;
  definitionHash: string;
  migrate: Record<string, (steps: Record<string, StepRecord>) => Record<string, StepRecord>>;
  /** Used when a call names no store, so `resume` in the same process finds the run. */
  defaultStore: WorkflowStore;
}

/** How a pass starts: a new run, a resume of a stored one, or a fork of one. */
export type Execution =
  | { type: 'start'; input: unknown; options?: WorkflowRunOptions }
  | { type: 'resume'; runId: string; request: ResumeRequest; options?: WorkflowRunOptions }
  | { type: 'fork'; runId: string; fromStep: string; input?: unknown; options?: WorkflowRunOptions };

/** A mistake in a `resume` or `fork` call (unknown run, wrong payload, changed definition): the run is left as it was. */
export class WorkflowRequestError extends Error {
  override name = 'WorkflowRequestError';
  constructor(
    message: string,
    readonly code:
      | 'not_found'
      | 'invalid_payload'
      | 'not_suspended'
      | 'definition_changed'
      | 'invalid_input'
      /** Another process executes the run now (it holds its lease). */
      | 'running',
  ) {
    super(message);
  }
}

/** Starts, resumes or forks a run and carries it as far as it goes: done, suspended, failed or cancelled. */
export async function execute(runtime: WorkflowRuntime, execution: Execution): Promise<WorkflowResult> {
  const store = execution.options?.store ?? runtime.defaultStore;
  const runId = execution.type === 'resume' ? execution.runId : (execution.options?.runId ?? crypto.randomUUID());
  // Taken before the run exists or changes: a recovery elsewhere never picks up a run this call carries.
  const held = await holdRun({ store, runId, leaseMs: execution.options?.leaseMs });
  if (!held)
    throw new WorkflowRequestError(
      `Run "${runId}" is being executed by another process (it holds the run's lease); try again once it has suspended or ended.`,
      'running',
    );
  try {
    return await carry(runtime, { store, runId, execution, held });
  } finally {
    await held.release().catch(() => {});
  }
}

interface Carry {
  store: WorkflowStore;
  runId: string;
  execution: Execution;
  /** Stops on a cancel, or if another process took the run over (this one then writes no end). */
  held: HeldRun;
}

async function carry(runtime: WorkflowRuntime, call: Carry): Promise<WorkflowResult> {
  const { store, execution, held } = call;
  const prepared = await prepare(runtime, store, execution, call.runId);
  const started = Date.now();
  const emit = execution.options?.onEvent;
  const own = execution.options?.signal;
  // A caller's own signal is joined with the lease's at once; the lease's alone is made only if asked for.
  const stop: RunStop = own ? new SignalStop(AbortSignal.any([own, held.signal])) : held;
  const ctx: EngineContext = {
    run: prepared.run,
    store,
    steps: prepared.steps,
    resume: prepared.resume,
    usage: emptyUsage(),
    suspended: [],
    emit,
    stop,
    seq: { n: 0 },
    dispatch: execution.options?.dispatch,
  };
  const { run } = prepared;
  emit?.(
    at(run, 'workflow_start', {
      workflow: run.workflowId,
      input: run.input,
      definitionHash: run.definitionHash,
      ...(execution.type === 'start' ? {} : { resumed: true }),
    }),
  );
  let status: WorkflowResult['status'];
  let output: unknown;
  let error: RunError | undefined;
  try {
    const outcome = await runNodes(ctx, runtime.shape, run.input);
    if (outcome.type === 'suspended') status = 'suspended';
    else {
      const checked = runtime.shape.output.safeParse(outcome.value);
      if (!checked.success)
        throw new StepInputError(
          `Workflow "${runtime.shape.id}" ended with an output its schema refuses: ${issues(checked.error)}`,
        );
      status = 'done';
      output = checked.data;
    }
  } catch (caught) {
    status = stop.stopped ? 'cancelled' : 'failed';
    error = {
      code: held.lost
        ? 'lease_lost'
        : held.stopped
          ? 'cancelled'
          : own?.aborted
            ? 'aborted'
            : caught instanceof StepInputError
              ? 'invalid_step_value'
              : 'step_failed',
      message: caught instanceof Error ? caught.message : String(caught),
    };
  }
  // A run taken over by another process is theirs to end.
  if (!held.lost) await store.updateRun(run.id, { status, output, error, cancelRequested: undefined });
  const durationMs = Date.now() - started;
  emit?.(at(run, 'workflow_end', { workflow: run.workflowId, status, output, usage: ctx.usage, durationMs, error }));
  return {
    runId: run.id,
    workflowId: run.workflowId,
    status,
    output,
    steps: visibleSteps(ctx.steps),
    suspended: ctx.suspended,
    usage: ctx.usage,
    error,
    durationMs,
  };
}

/**
 * Cancels a run: one this process carries stops at once, one another process carries at its next lease
 * renewal (a flag on the run), and a suspended or crashed one nobody carries is marked cancelled here.
 * Resolves with the run's status as the store has it after the request.
 */
export async function cancel(
  runtime: WorkflowRuntime,
  runId: string,
  options: Pick<WorkflowRunOptions, 'store'> = {},
): Promise<WorkflowStatus> {
  const store = options.store ?? runtime.defaultStore;
  const run = await store.getRun(runId);
  if (!run || run.workflowId !== runtime.shape.id)
    throw new WorkflowRequestError(`No run "${runId}" of workflow "${runtime.shape.id}" in this store.`, 'not_found');
  if (run.status === 'done' || run.status === 'failed' || run.status === 'cancelled')
    throw new WorkflowRequestError(`Run "${runId}" has already ended (${run.status}).`, 'not_suspended');
  if (cancelCarried(store, runId)) return 'running';
  const held = await holdRun({ store, runId });
  if (!held) {
    await store.updateRun(runId, { cancelRequested: true });
    return 'running';
  }
  try {
    const now = await store.getRun(runId);
    if (now?.status !== 'suspended' && now?.status !== 'running') return now?.status ?? 'cancelled';
    const error = { code: 'cancelled', message: `Run "${runId}" was cancelled.` };
    await store.updateRun(runId, { status: 'cancelled', error, cancelRequested: undefined });
    return 'cancelled';
  } finally {
    await held.release();
  }
}

interface Prepared {
  run: WorkflowRunRecord;
  steps: Record<string, StepRecord>;
  resume?: { path: string; payload: unknown };
}

async function prepare(
  runtime: WorkflowRuntime,
  store: WorkflowStore,
  execution: Execution,
  id: string,
): Promise<Prepared> {
  const { shape } = runtime;
  if (execution.type === 'start') {
    const input = shape.input.safeParse(execution.input);
    if (!input.success)
      throw new WorkflowRequestError(
        `Workflow "${shape.id}" cannot take this input: ${issues(input.error)}`,
        'invalid_input',
      );
    const run = newRecord(runtime, {
      id,
      input: input.data,
      ...ownerOf(execution.options),
    });
    await store.createRun(run);
    return { run, steps: {} };
  }
  const source = await store.getRun(execution.runId);
  if (!source || source.workflowId !== shape.id)
    throw new WorkflowRequestError(`No run "${execution.runId}" of workflow "${shape.id}" in this store.`, 'not_found');
  let steps = await store.loadSteps(source.id);
  if (source.definitionHash !== runtime.definitionHash) {
    const migrate = runtime.migrate[source.definitionHash];
    if (!migrate) {
      throw new WorkflowRequestError(
        `Run "${source.id}" started under definition ${source.definitionHash} of workflow "${shape.id}", which has changed (now ${runtime.definitionHash}). ` +
          `Declare migrate: { '${source.definitionHash}': (steps) => steps } in createWorkflow to carry its checkpoints over.`,
        'definition_changed',
      );
    }
    steps = migrate(steps);
  }
  if (execution.type === 'fork') {
    const from = findPath(shape, steps, execution.fromStep);
    const kept = Object.fromEntries(Object.entries(steps).filter(([path]) => before(path, from)));
    const run = newRecord(runtime, {
      id,
      input: source.input,
      overrides: execution.input === undefined ? undefined : { [from]: execution.input },
      forkedFrom: { runId: source.id, fromStep: execution.fromStep },
      ...ownerOf(execution.options),
    });
    await store.createRun(run, kept);
    return { run, steps: kept };
  }
  if (source.status === 'done' || source.status === 'cancelled')
    throw new WorkflowRequestError(`Run "${source.id}" is ${source.status}; fork it to run it again.`, 'not_suspended');
  const resume = resumeTarget(shape, steps, execution.request);
  if (source.definitionHash !== runtime.definitionHash) {
    // One commit per changed step is enough here: migrations are rare and the run is not running.
    await store.deleteSteps(
      source.id,
      Object.keys(await store.loadSteps(source.id)).filter((p) => !(p in steps)),
    );
    for (const [path, record] of Object.entries(steps)) await store.saveStep(source.id, path, record);
  }
  await store.updateRun(source.id, { status: 'running', definitionHash: runtime.definitionHash, error: undefined });
  return { run: withFields(source, { definitionHash: runtime.definitionHash }), steps, resume };
}

function ownerOf(options: WorkflowRunOptions | undefined): { owner?: string } {
  return options?.owner === undefined ? {} : { owner: options.owner };
}

function newRecord(
  runtime: WorkflowRuntime,
  fields: Pick<WorkflowRunRecord, 'id' | 'input'> & Partial<WorkflowRunRecord>,
): WorkflowRunRecord {
  const now = Date.now();
  return {
    workflowId: runtime.shape.id,
    definitionHash: runtime.definitionHash,
    status: 'running',
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

/** Finds the suspended step a resume is for and checks its payload, before anything runs. */
function resumeTarget(
  shape: WorkflowShape,
  steps: Record<string, StepRecord>,
  request: ResumeRequest,
): Prepared['resume'] {
  if (request.step === undefined && request.event === undefined) return undefined;
  const waiting = Object.entries(steps).filter(([, r]) => r.status === 'suspended') as [
    string,
    Extract<StepRecord, { status: 'suspended' }>,
  ][];
  const matches = waiting.filter(([path, r]) =>
    request.event !== undefined
      ? r.event === request.event
      : path === request.step || (r.stepId === request.step && !r.event),
  );
  const what = request.event !== undefined ? `event "${request.event}"` : `step "${request.step}"`;
  if (matches.length === 0) {
    const list = waiting
      .map(([path, r]) => (r.event ? `event "${r.event}"` : `step "${r.stepId}" (${path})`))
      .join(', ');
    throw new WorkflowRequestError(
      `The run does not wait for ${what}${list ? `; it waits for ${list}` : ''}.`,
      'not_suspended',
    );
  }
  if (matches.length > 1) {
    throw new WorkflowRequestError(
      `Several steps wait as ${what}: name one by path (${matches.map(([p]) => p).join(', ')}).`,
      'not_suspended',
    );
  }
  const [path] = matches[0]!;
  const found = nodeAt(shape, path);
  const schema = found?.node.type === 'event' ? found.node.schema : found?.step?.resumeSchema;
  if (!schema) return { path, payload: request.payload };
  const parsed = schema.safeParse(request.payload);
  if (!parsed.success)
    throw new WorkflowRequestError(
      `The payload for ${what} does not fit its schema: ${issues(parsed.error)}`,
      'invalid_payload',
    );
  return { path, payload: parsed.data };
}

/** The node (and step) a checkpoint path points to, walking nested workflows. */
export function nodeAt(shape: WorkflowShape, path: string): { node: WorkflowNode; step?: AnyStep } | undefined {
  let current: WorkflowShape | undefined = shape;
  let found: { node: WorkflowNode; step?: AnyStep } | undefined;
  for (const segment of path.split('/')) {
    const match = /^(\d+)\.([^[#~]*)/.exec(segment);
    const node = match && current?.nodes[Number(match[1])];
    if (!node) return undefined;
    const id = match[2];
    const steps = stepsOf(node);
    const step = steps.find((s) => s.id === id);
    found = { node, step };
    current = step?.workflow;
  }
  return found;
}

function stepsOf(node: WorkflowNode): AnyStep[] {
  switch (node.type) {
    case 'step':
    case 'foreach':
    case 'loop':
      return [node.step];
    case 'parallel':
      return node.steps;
    case 'branch':
      return node.branches.map(([, s]) => s);
    default:
      return [];
  }
}

/** The checkpoint path a fork starts from: a stored path, a stored step's id, or a step of the definition. */
function findPath(shape: WorkflowShape, steps: Record<string, StepRecord>, fromStep: string): string {
  if (nodeAt(shape, fromStep)) return fromStep;
  const stored = Object.keys(steps)
    .filter((path) => stepIdOf(path) === fromStep)
    .sort(compareOrder)[0];
  if (stored) return stored;
  const walk = (s: WorkflowShape, prefix: string): string | undefined => {
    for (const [i, node] of s.nodes.entries()) {
      for (const step of stepsOf(node)) {
        if (step.id === fromStep) return `${prefix}${i}.${step.id}`;
        const inner = step.workflow && walk(step.workflow, `${prefix}${i}.${step.id}/`);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  const defined = walk(shape, '');
  if (!defined)
    throw new WorkflowRequestError(`Workflow "${shape.id}" has no step "${fromStep}" to fork from.`, 'not_found');
  return defined;
}

function stepIdOf(path: string): string {
  return /(\d+)\.([^[#~/]*)[^/]*$/.exec(path)?.[2] ?? '';
}

/** Node indexes along a path: `2.a/1.b[3]` → [2, 1]. Parallel siblings and foreach items share theirs. */
function indexes(path: string): number[] {
  return path.split('/').map((segment) => Number(/^(\d+)/.exec(segment)?.[1] ?? -1));
}

function compareOrder(a: string, b: string): number {
  const x = indexes(a);
  const y = indexes(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Whether a checkpoint comes strictly before the fork point (and is not one of its ancestors or siblings). */
function before(path: string, from: string): boolean {
  const x = indexes(path);
  const y = indexes(from);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
}

/** The checkpoints a result or an API view shows: steps and waits, not branch/loop markers or agent state (`~`). */
export function visibleSteps(steps: Record<string, StepRecord>): Record<string, StepRecord> {
  const out: Record<string, StepRecord> = {};
  for (const path in steps) {
    const record = steps[path]!;
    if (record.status !== 'marker' && !path.includes('~')) out[path] = record;
  }
  return out;
}

function at<T extends AgentEvent['type']>(
  run: WorkflowRunRecord,
  type: T,
  fields: Omit<Extract<AgentEvent, { type: T }>, 'type' | 'runId' | 'ts'>,
): AgentEvent {
  return { type, runId: run.id, ts: Date.now(), ...fields } as AgentEvent;
}
