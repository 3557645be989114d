import type { z } from 'zod';
import { Agent } from '../agent/index.js';
import { sha256Hex } from '../core/index.js';
import type { AnyTool, Tool } from '../tools/index.js';
import { agentStep, checkStepId, toolStep, workflowAsStep } from './create-step.js';
import { cancel, execute, type WorkflowRuntime } from './execute-workflow.js';
import { memoryWorkflowStore } from './workflow-store.js';
import type {
  AnyStep,
  Condition,
  ResumeRequest,
  StepRecord,
  WorkflowNode,
  WorkflowResult,
  WorkflowRunOptions,
  WorkflowShape,
  WorkflowStatus,
  WorkflowStep,
} from './workflow-types.js';

/** Anything `.then` takes: a step, another workflow, an agent (string in, answer out) or a tool. */
// biome-ignore lint/suspicious/noExplicitAny: any types, narrowed by InputOf and OutputOf.
export type StepLike = WorkflowStep<any, any, any, string> | Workflow<any, any, string> | Agent | Tool<any, any>;

/** The input type a step-like takes. */
export type InputOf<S> =
  S extends WorkflowStep<infer I, infer _O, infer _R, string>
    ? I
    : S extends Workflow<infer I, infer _O, string>
      ? I
      : S extends Agent
        ? string
        : S extends Tool<infer I, infer _O>
          ? I
          : never;

/** The output type a step-like gives. */
export type OutputOf<S> =
  S extends WorkflowStep<infer _I, infer O, infer _R, string>
    ? O
    : S extends Workflow<infer _I, infer O, string>
      ? O
      : S extends Agent<infer T>
        ? unknown extends T
          ? string
          : T
        : S extends Tool<infer _I, infer O>
          ? O
          : never;

type IdOf<S> = S extends { id: infer Id extends string } ? Id : string;

/** Shown by the compiler where a step cannot take what the previous one gives. */
export interface StepInputMismatch<Got, Expected> {
  readonly error: 'the previous output does not fit this step input';
  readonly got: Got;
  readonly expected: Expected;
}

type Fits<Cur, S> = [Cur] extends [InputOf<S>] ? unknown : StepInputMismatch<Cur, InputOf<S>>;
type FitsAll<Cur, S extends readonly unknown[]> = { [K in keyof S]: Fits<Cur, S[K]> };
type Merged<S extends readonly unknown[]> = { [K in S[number] as IdOf<K>]: OutputOf<K> };

/** What `createWorkflow` takes. */
export interface CreateWorkflowOptions<I, O, Id extends string> {
  id: Id;
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  /**
   * Carries runs started under an earlier definition (keyed by its `definitionHash`) to this one: gets
   * their step checkpoints by path, returns the ones to keep (renamed as the new paths need).
   * Without an entry, resuming such a run fails with an error naming both hashes.
   */
  migrate?: Record<string, (steps: Record<string, StepRecord>) => Record<string, StepRecord>>;
}

/** A committed workflow: run it, resume it, fork it, or use it as a step of another. */
export interface Workflow<I = unknown, O = unknown, Id extends string = string> extends WorkflowShape {
  readonly kind: 'workflow';
  readonly id: Id;
  readonly input: z.ZodType<I>;
  readonly output: z.ZodType<O>;
  /** A hash of the node structure; a run records it, and a resume under another one needs `migrate`. */
  readonly definitionHash: string;
  run(input: I, options?: WorkflowRunOptions): Promise<WorkflowResult<O>>;
  /** Continues a suspended run (or one that crashed or failed) from its checkpoints. */
  resume(runId: string, request?: ResumeRequest, options?: WorkflowRunOptions): Promise<WorkflowResult<O>>;
  /** A new run that reuses every checkpoint before `fromStep` and runs again from there (with `input` for it, if given). */
  fork(
    runId: string,
    request: { fromStep: string; input?: unknown },
    options?: WorkflowRunOptions,
  ): Promise<WorkflowResult<O>>;
  /**
   * Cancels a running or suspended run: one this process carries stops at once (its `run` resolves
   * `cancelled`), one another process carries stops at its next lease renewal (within `leaseMs / 3`),
   * and one nobody carries is marked `cancelled`. Resolves with the stored status after the request.
   */
  cancel(runId: string, options?: Pick<WorkflowRunOptions, 'store'>): Promise<WorkflowStatus>;
}

/** The chain `createWorkflow` returns: each call appends a node, `commit()` finishes it. */
export interface WorkflowBuilder<TIn, TOut, TCur, Id extends string> {
  then<S extends StepLike>(step: S & Fits<TCur, S>): WorkflowBuilder<TIn, TOut, OutputOf<S>, Id>;
  /** Runs the steps at once on the same value; their outputs are merged by step id. */
  parallel<const S extends readonly StepLike[]>(steps: S & FitsAll<TCur, S>): WorkflowBuilder<TIn, TOut, Merged<S>, Id>;
  /** Runs every step whose condition holds (at once); the output has an entry per step that ran. */
  branch<const S extends readonly StepLike[]>(
    branches: { [K in keyof S]: readonly [Condition<TCur>, S[K] & Fits<TCur, S[K]>] },
  ): WorkflowBuilder<TIn, TOut, Partial<Merged<S>>, Id>;
  /** Runs the step on every item of the array (at most `concurrency` at a time, default 1), in order. */
  foreach<S extends StepLike>(
    step: S & ([TCur] extends [readonly InputOf<S>[]] ? unknown : StepInputMismatch<TCur, InputOf<S>[]>),
    options?: { concurrency?: number },
  ): WorkflowBuilder<TIn, TOut, OutputOf<S>[], Id>;
  /** Runs the step, then again on its own output while the condition holds (at least once). */
  dowhile<S extends StepLike>(
    step: S & Fits<TCur, S> & Fits<OutputOf<S>, S>,
    condition: Condition<OutputOf<S>>,
    options?: { maxIterations?: number },
  ): WorkflowBuilder<TIn, TOut, OutputOf<S>, Id>;
  /** Runs the step, then again on its own output until the condition holds (at least once). */
  dountil<S extends StepLike>(
    step: S & Fits<TCur, S> & Fits<OutputOf<S>, S>,
    condition: Condition<OutputOf<S>>,
    options?: { maxIterations?: number },
  ): WorkflowBuilder<TIn, TOut, OutputOf<S>, Id>;
  /** Waits, durably: a run resumed after a crash sleeps only what is left. The value passes through. */
  sleep(ms: number): WorkflowBuilder<TIn, TOut, TCur, Id>;
  sleepUntil(date: Date | ((value: TCur) => Date)): WorkflowBuilder<TIn, TOut, TCur, Id>;
  /** Suspends the run until `resume(runId, { event: name, payload })` brings a payload the schema accepts. */
  waitForEvent<P>(name: string, schema: z.ZodType<P>): WorkflowBuilder<TIn, TOut, P, Id>;
  commit(...check: [TCur] extends [TOut] ? [] : [StepInputMismatch<TCur, TOut>]): Workflow<TIn, TOut, Id>;
}

/**
 * A workflow: a known flow of typed steps (agents, tools, functions, other workflows), durable with a
 * store, suspendable, resumable and forkable.
 * @example
 * const flow = createWorkflow({ id: 'triage', input: z.string(), output: z.string() })
 *   .then(classify)
 *   .branch([[(c) => c.urgent, page], [(c) => !c.urgent, ticket]])
 *   .then(report)
 *   .commit();
 * const result = await flow.run('The site is down', { store: sqliteWorkflowStore() });
 */
export function createWorkflow<I, O, const Id extends string>(
  options: CreateWorkflowOptions<I, O, Id>,
): WorkflowBuilder<I, O, I, Id> {
  checkStepId(options.id);
  const nodes: WorkflowNode[] = [];
  const loop =
    (until: boolean) => (step: StepLike, condition: Condition<unknown>, opts?: { maxIterations?: number }) => {
      nodes.push({ type: 'loop', step: asStep(step), condition, until, maxIterations: opts?.maxIterations ?? 100 });
      return builder;
    };
  const builder = {
    // biome-ignore lint/suspicious/noThenProperty: `.then(step)` is the binding name; the builder is never awaited (commit() returns the workflow).
    then(step: StepLike) {
      nodes.push({ type: 'step', step: asStep(step) });
      return builder;
    },
    parallel(steps: readonly StepLike[]) {
      nodes.push({ type: 'parallel', steps: uniqueIds(steps.map(asStep), 'parallel') });
      return builder;
    },
    branch(branches: readonly (readonly [Condition<unknown>, StepLike])[]) {
      const steps = uniqueIds(
        branches.map(([, step]) => asStep(step)),
        'branch',
      );
      nodes.push({ type: 'branch', branches: branches.map(([condition], i) => [condition, steps[i]!]) });
      return builder;
    },
    foreach(step: StepLike, opts?: { concurrency?: number }) {
      nodes.push({ type: 'foreach', step: asStep(step), concurrency: Math.max(1, Math.floor(opts?.concurrency ?? 1)) });
      return builder;
    },
    dowhile: loop(false),
    dountil: loop(true),
    sleep(ms: number) {
      nodes.push({ type: 'sleep', ms });
      return builder;
    },
    sleepUntil(until: Date | ((value: unknown) => Date)) {
      nodes.push({ type: 'sleep', until });
      return builder;
    },
    waitForEvent(name: string, schema: z.ZodType) {
      nodes.push({ type: 'event', name, schema });
      return builder;
    },
    commit() {
      return commitWorkflow(options, [...nodes]);
    },
  };
  return builder as unknown as WorkflowBuilder<I, O, I, Id>;
}

function commitWorkflow<I, O, Id extends string>(
  options: CreateWorkflowOptions<I, O, Id>,
  nodes: WorkflowNode[],
): Workflow<I, O, Id> {
  const shape: WorkflowShape = { id: options.id, input: options.input, output: options.output, nodes };
  const runtime: WorkflowRuntime = {
    shape,
    definitionHash: definitionHash(shape),
    migrate: options.migrate ?? {},
    defaultStore: memoryWorkflowStore(),
  };
  return {
    kind: 'workflow',
    ...shape,
    id: options.id,
    input: options.input,
    output: options.output,
    definitionHash: runtime.definitionHash,
    run: (input, opts) => execute(runtime, { type: 'start', input, options: opts }) as Promise<WorkflowResult<O>>,
    resume: (runId, request, opts) =>
      execute(runtime, { type: 'resume', runId, request: request ?? {}, options: opts }) as Promise<WorkflowResult<O>>,
    fork: (runId, request, opts) =>
      execute(runtime, { type: 'fork', runId, ...request, options: opts }) as Promise<WorkflowResult<O>>,
    cancel: (runId, opts) => cancel(runtime, runId, opts),
  };
}

function asStep(step: StepLike): AnyStep {
  if (step instanceof Agent) return agentStep(step, { id: step.name ?? 'agent' });
  if ('kind' in step && step.kind === 'workflow') return workflowAsStep(step);
  if ('kind' in step && step.kind === 'step') return step;
  return toolStep(step as AnyTool);
}

function uniqueIds(steps: AnyStep[], where: string): AnyStep[] {
  const seen = new Set<string>();
  for (const step of steps) {
    if (seen.has(step.id))
      throw new TypeError(`Two steps of one ${where} share the id "${step.id}": their outputs are merged by id.`);
    seen.add(step.id);
  }
  return steps;
}

/** A hash of what decides where checkpoints go: node kinds, step ids and nesting, not the code inside steps. */
export function definitionHash(shape: WorkflowShape): string {
  return sha256Hex(JSON.stringify(structure(shape))).slice(0, 16);
}

function structure(shape: WorkflowShape): unknown {
  const step = (s: AnyStep): unknown => (s.workflow ? { id: s.id, workflow: structure(s.workflow) } : s.id);
  return {
    id: shape.id,
    nodes: shape.nodes.map((node): unknown => {
      switch (node.type) {
        case 'step':
        case 'foreach':
        case 'loop':
          return [node.type, step(node.step)];
        case 'parallel':
          return [node.type, node.steps.map(step)];
        case 'branch':
          return [node.type, node.branches.map(([, s]) => step(s))];
        case 'sleep':
          return [node.type];
        default:
          return [node.type, node.name];
      }
    }),
  };
}
