import { andThen, isThenable, type MaybePromise } from '../core/index.js';
import {
  addUsage,
  event,
  issues,
  type LeafCall,
  type LeafContext,
  type Outcome,
  runLeaf,
  StepInputError,
  SUSPENDED,
  save,
} from './run-leaf.js';
import type { StepDispatch } from './step-job.js';
import type { AnyStep, WorkflowNode, WorkflowRunRecord, WorkflowShape, WorkflowStore } from './workflow-types.js';

/**
 * Everything one pass over a run's nodes shares: the run, its checkpoints (reused steps are not run
 * again) and where events go.
 */
export interface EngineContext extends LeafContext {
  run: WorkflowRunRecord;
  store: WorkflowStore;
  /** The suspended step a resume is for, with its (already validated) payload. */
  resume?: { path: string; payload: unknown };
  /** Counts step starts, for the events' `step`. */
  seq: { n: number };
  /** Set in queue mode: leaf steps run where this sends them (a queue worker), not here. */
  dispatch?: StepDispatch;
}

/**
 * Runs a workflow's nodes in order, each on the previous one's value. A node whose checkpoint is in
 * `ctx.steps` is not run again; one that suspends stops the list (parallel siblings still finish).
 * Plain function steps on a store that writes at once run without a microtask: the result is a
 * promise only from the first node that had to wait.
 */
export function runNodes(ctx: EngineContext, shape: WorkflowShape, input: unknown, prefix = ''): MaybePromise<Outcome> {
  return runFrom(ctx, { shape, prefix }, 0, input);
}

interface NodeList {
  shape: WorkflowShape;
  prefix: string;
}

function runFrom(ctx: EngineContext, list: NodeList, start: number, input: unknown): MaybePromise<Outcome> {
  const { nodes } = list.shape;
  let value = input;
  for (let index = start; index < nodes.length; index++) {
    if (ctx.stop.stopped) ctx.stop.signal.throwIfAborted();
    const outcome = runNode(ctx, {
      node: nodes[index]!,
      at: `${list.prefix}${index}`,
      value,
      shape: list.shape,
      index,
    });
    if (isThenable(outcome)) {
      const next = index + 1;
      return Promise.resolve(outcome).then((o) => (o.type === 'suspended' ? o : runFrom(ctx, list, next, o.value)));
    }
    if (outcome.type === 'suspended') return outcome;
    value = outcome.value;
  }
  return { type: 'value', value };
}

/** Where a node's value came from: the node before it in its workflow (the input for the first). */
interface Source {
  shape: WorkflowShape;
  index: number;
}

/** The source as validation errors name it (built only for an error). */
function sourceOf({ shape, index }: Source): string {
  return index === 0 ? `the input of workflow "${shape.id}"` : `the output of ${describe(shape.nodes[index - 1]!)}`;
}

interface NodeCall extends Source {
  node: WorkflowNode;
  /** The node's place: its index, after its parents' paths. */
  at: string;
  value: unknown;
}

function runNode(ctx: EngineContext, call: NodeCall): MaybePromise<Outcome> {
  const { node } = call;
  if (node.type === 'step')
    return runStep(ctx, { step: node.step, path: `${call.at}.${node.step.id}`, value: call.value, from: call });
  return runCompound(ctx, call as CompoundCall);
}

/** A node that is not a single step (`runNode` runs those itself). */
type CompoundCall = NodeCall & { node: Exclude<WorkflowNode, { type: 'step' }> };

/** Every node but a single step: these wait for several steps, a condition, a timer or an event. */
async function runCompound(ctx: EngineContext, call: CompoundCall): Promise<Outcome> {
  const { node, at, value } = call;
  const from: Source = call;
  switch (node.type) {
    case 'parallel': {
      const paths = node.steps.map((step) => `${at}.${step.id}`);
      const outcomes = await settleAll(
        node.steps.map((step, i) => () => runStep(ctx, { step, path: paths[i]!, value, from })),
      );
      return merge(node.steps, outcomes);
    }
    case 'branch': {
      const key = `${at}.branch`;
      const chosen = (ctx.steps[key] as { value?: number[] } | undefined)?.value ?? (await choose(node, value));
      if (!ctx.steps[key]) await save(ctx, key, { status: 'marker', value: chosen });
      const steps = chosen.map((i) => node.branches[i]![1]);
      const outcomes = await settleAll(
        steps.map((step) => () => runStep(ctx, { step, path: `${at}.${step.id}`, value, from })),
      );
      return merge(steps, outcomes);
    }
    case 'foreach': {
      if (!Array.isArray(value))
        throw new StepInputError(`foreach "${node.step.id}" needs an array, but ${sourceOf(from)} is ${typeof value}.`);
      const items = value.map(
        (item, i) => () => runStep(ctx, { step: node.step, path: `${at}.${node.step.id}[${i}]`, value: item, from }),
      );
      const outcomes = await settleAll(items, node.concurrency);
      if (outcomes.some((o) => o.type === 'suspended')) return SUSPENDED;
      return { type: 'value', value: outcomes.map((o) => (o as { value: unknown }).value) };
    }
    case 'loop': {
      let current = value;
      for (let n = 0; n < node.maxIterations; n++) {
        const outcome = await runStep(ctx, {
          step: node.step,
          path: `${at}.${node.step.id}#${n}`,
          value: current,
          from,
        });
        if (outcome.type === 'suspended') return outcome;
        current = outcome.value;
        const holds = await node.condition(current);
        if (node.until ? holds : !holds) return { type: 'value', value: current };
      }
      throw new Error(
        `loop "${node.step.id}" ran ${node.maxIterations} times without meeting its condition (maxIterations).`,
      );
    }
    case 'sleep':
      await sleepNode(ctx, { node, key: `${at}.sleep`, value });
      return { type: 'value', value };
    case 'event':
      return waitForEvent(ctx, { node, key: `${at}.event` });
  }
}

interface StepCall {
  step: AnyStep;
  path: string;
  value: unknown;
  from: Source;
}

function runStep(ctx: EngineContext, call: StepCall): MaybePromise<Outcome> {
  const { step, path } = call;
  const record = ctx.steps[path];
  if (record?.status === 'done') {
    if (record.usage) addUsage(ctx.usage, record.usage);
    return { type: 'value', value: record.output };
  }
  const resumed = ctx.resume?.path === path ? ctx.resume : undefined;
  if (record?.status === 'suspended' && !resumed) {
    ctx.suspended.push({ path, stepId: step.id, payload: record.payload });
    return SUSPENDED;
  }
  const input = ctx.run.overrides?.[path] ?? call.value;
  const parsed = step.input.safeParse(input);
  if (!parsed.success) {
    throw new StepInputError(`Step "${step.id}" (${path}) cannot take ${sourceOf(call.from)}: ${issues(parsed.error)}`);
  }
  if (step.workflow) return runNested(ctx, { step, path, input: parsed.data });
  const leaf: LeafCall = { step, path, input: parsed.data, n: ctx.seq.n++, resume: resumed };
  return ctx.dispatch ? runElsewhere(ctx, leaf) : runLeaf(ctx, leaf);
}

/**
 * Hands a leaf step to `ctx.dispatch` (a queue worker runs it with `runLeaf` and checkpoints it) and
 * takes back the checkpoint it wrote. Its events are the worker's: they go to the store from there.
 */
async function runElsewhere(ctx: EngineContext, call: LeafCall): Promise<Outcome> {
  const { step, path } = call;
  const { record, usage } = await ctx.dispatch!(
    {
      runId: ctx.run.id,
      workflowId: ctx.run.workflowId,
      definitionHash: ctx.run.definitionHash,
      path,
      stepId: step.id,
      input: call.input,
      step: call.n,
      ...(call.resume ? { resume: { payload: call.resume.payload } } : {}),
    },
    ctx.stop.signal,
  );
  ctx.steps[path] = record;
  addUsage(ctx.usage, usage);
  if (record.status === 'done') return { type: 'value', value: record.output };
  ctx.suspended.push({ path, stepId: step.id, payload: record.payload });
  return SUSPENDED;
}

/** A workflow used as a step: its nodes run in this run under the step's path, then its output is checkpointed. */
function runNested(ctx: EngineContext, call: { step: AnyStep; path: string; input: unknown }): MaybePromise<Outcome> {
  return andThen(runNodes(ctx, call.step.workflow!, call.input, `${call.path}/`), (outcome) => {
    if (outcome.type === 'suspended') return outcome;
    const checked = call.step.workflow!.output.safeParse(outcome.value);
    if (!checked.success)
      throw new StepInputError(
        `Workflow "${call.step.id}" (${call.path}) returned an output its schema refuses: ${issues(checked.error)}`,
      );
    const done: Outcome = { type: 'value', value: checked.data };
    return andThen(save(ctx, call.path, { status: 'done', output: checked.data }), () => done);
  });
}

async function sleepNode(
  ctx: EngineContext,
  call: { node: Extract<WorkflowNode, { type: 'sleep' }>; key: string; value: unknown },
): Promise<void> {
  const { node, key } = call;
  if (ctx.steps[key]?.status === 'done') return;
  // The wake time is stored first, so a run resumed after a crash sleeps only what is left.
  let wakeAt = (ctx.steps[key] as { value?: number } | undefined)?.value;
  if (wakeAt === undefined) {
    const until = typeof node.until === 'function' ? node.until(call.value) : node.until;
    wakeAt = until ? until.getTime() : Date.now() + (node.ms ?? 0);
    await save(ctx, key, { status: 'marker', value: wakeAt });
  }
  await delay(Math.max(0, wakeAt - Date.now()), ctx.stop.signal);
  await save(ctx, key, { status: 'done', output: null });
}

async function waitForEvent(
  ctx: EngineContext,
  call: { node: Extract<WorkflowNode, { type: 'event' }>; key: string },
): Promise<Outcome> {
  const { node, key } = call;
  const record = ctx.steps[key];
  if (record?.status === 'done') return { type: 'value', value: record.output };
  if (ctx.resume?.path === key) {
    const payload = ctx.resume.payload;
    await save(ctx, key, { status: 'done', output: payload });
    // The wait ends here: its step_end says so on the stream, as a step's does.
    ctx.emit?.(
      event(ctx, 'step_end', { step: ctx.seq.n++, stepId: node.name, path: key, ms: 0, ok: true, output: payload }),
    );
    return { type: 'value', value: payload };
  }
  if (!record) {
    await save(ctx, key, { status: 'suspended', stepId: node.name, event: node.name });
    ctx.emit?.(event(ctx, 'step_suspended', { step: ctx.seq.n++, stepId: node.name, path: key, event: node.name }));
  }
  ctx.suspended.push({ path: key, stepId: node.name, event: node.name });
  return SUSPENDED;
}

/** Runs every task (at most `limit` at a time) and waits for all: a failure surfaces only once the others settled and saved. */
async function settleAll(tasks: (() => MaybePromise<Outcome>)[], limit = Number.POSITIVE_INFINITY): Promise<Outcome[]> {
  const results: PromiseSettledResult<Outcome>[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      // A task that throws at once (a step refusing its input) settles as a rejection, like one that waited.
      results[i] = await new Promise<Outcome>((resolve) => resolve(tasks[i]!())).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason) => ({ status: 'rejected', reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return results.map((r) => (r as PromiseFulfilledResult<Outcome>).value);
}

function merge(steps: AnyStep[], outcomes: Outcome[]): Outcome {
  if (outcomes.some((o) => o.type === 'suspended')) return SUSPENDED;
  const value: Record<string, unknown> = {};
  steps.forEach((step, i) => {
    value[step.id] = (outcomes[i] as { value: unknown }).value;
  });
  return { type: 'value', value };
}

async function choose(node: Extract<WorkflowNode, { type: 'branch' }>, value: unknown): Promise<number[]> {
  const chosen: number[] = [];
  for (const [i, [condition]] of node.branches.entries()) if (await condition(value)) chosen.push(i);
  return chosen;
}

function describe(node: WorkflowNode): string {
  switch (node.type) {
    case 'step':
    case 'foreach':
    case 'loop':
      return `step "${node.step.id}"`;
    case 'parallel':
      return `parallel [${node.steps.map((s) => s.id).join(', ')}]`;
    case 'branch':
      return `branch [${node.branches.map(([, s]) => s.id).join(', ')}]`;
    case 'sleep':
      return 'a sleep';
    case 'event':
      return `event "${node.name}"`;
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
