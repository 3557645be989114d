import type { z } from 'zod';
import type { AgentEvent, RunError, RunUsage } from '../core/index.js';
import type { StepDispatch } from './step-job.js';

/** What a step's `run` gets besides its input. */
export interface StepContext<R = unknown> {
  /** The workflow run this step belongs to (agents inside use it as their `parentRunId`). */
  runId: string;
  workflowId: string;
  stepId: string;
  /** Where the step sits in the run (`2.review`, `1.docs[17]`): the key of its checkpoint. */
  path: string;
  /**
   * Aborts when the run is cancelled. Made when first read (most steps never listen), so it lives on
   * the context's prototype: pass the context on whole, or read `ctx.signal` before a spread copy
   * (`{ ...ctx }` copies the other fields but not this one).
   */
  signal: AbortSignal;
  /** The payload a `resume` brought, when this step suspended before. */
  resumeData?: R;
  /**
   * Suspends the run here: the step's `run` ends, the run ends `suspended` with `payload`, and
   * `resume(runId, { step, payload })` runs this step again with `resumeData` set.
   */
  suspend(payload?: unknown): never;
  /** Adds an agent's usage to the run's total (agent steps do this themselves). */
  addUsage(usage: RunUsage): void;
  /** Sends an event on the workflow's stream (agents inside pass theirs through here). */
  emit(event: AgentEvent): void;
}

/** A typed unit of work: zod schemas in and out, a function between. */
export interface WorkflowStep<I = unknown, O = unknown, R = unknown, Id extends string = string> {
  readonly kind: 'step';
  readonly id: Id;
  readonly input: z.ZodType<I>;
  readonly output: z.ZodType<O>;
  /** The payload a resume must carry, checked before the step runs again. */
  readonly resumeSchema?: z.ZodType<R>;
  // A property, not a method, so a step that takes another input type is a compile error where it is chained.
  readonly run: (input: I, ctx: StepContext<R>) => O | Promise<O>;
  /** Set when the step is another workflow, so its nodes run inside this run (and its suspends wake this one). */
  readonly workflow?: WorkflowShape;
}

// biome-ignore lint/suspicious/noExplicitAny: a step of any types, as held by a workflow's node list.
export type AnyStep = WorkflowStep<any, any, any, string>;

/** The condition of a branch or a loop: a pure function of the value it sees. */
export type Condition<T> = (value: T) => boolean | Promise<boolean>;

/** One node of a committed workflow: what `.then`, `.parallel`, ... appended. */
export type WorkflowNode =
  | { type: 'step'; step: AnyStep }
  | { type: 'parallel'; steps: AnyStep[] }
  // biome-ignore lint/suspicious/noExplicitAny: conditions see the previous output, whatever its type.
  | { type: 'branch'; branches: [Condition<any>, AnyStep][] }
  | { type: 'foreach'; step: AnyStep; concurrency: number }
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  | { type: 'loop'; step: AnyStep; condition: Condition<any>; until: boolean; maxIterations: number }
  | { type: 'sleep'; ms?: number; until?: Date | ((value: unknown) => Date) }
  | { type: 'event'; name: string; schema: z.ZodType };

/** The part of a workflow the engine reads. */
export interface WorkflowShape {
  readonly id: string;
  readonly input: z.ZodType;
  readonly output: z.ZodType;
  readonly nodes: readonly WorkflowNode[];
}

/** A step's checkpoint: what a resume, a crash recovery or a fork reuses. */
export type StepRecord =
  | { status: 'done'; output: unknown; usage?: RunUsage }
  | { status: 'suspended'; stepId: string; payload?: unknown; event?: string }
  /** A branch's choice or a loop's progress, kept so a resume takes the same way. */
  | { status: 'marker'; value: unknown };

export type WorkflowStatus = 'running' | 'done' | 'suspended' | 'failed' | 'cancelled';

/** A workflow run as the store keeps it. */
export interface WorkflowRunRecord {
  id: string;
  workflowId: string;
  /** The definition hash the run started under; a resume under another definition needs a `migrate`. */
  definitionHash: string;
  input: unknown;
  status: WorkflowStatus;
  output?: unknown;
  error?: RunError;
  /** Inputs that replace a step's own (a fork with edited input), by path. */
  overrides?: Record<string, unknown>;
  forkedFrom?: { runId: string; fromStep: string };
  /** Set by a cancel from a process that does not carry the run: the one that does stops at its next lease renewal. */
  cancelRequested?: boolean;
  /** The principal who started it over the HTTP API (`thinkflow serve`); others get a 404. */
  owner?: string;
  createdAt: number;
  updatedAt: number;
}

/** One event of a workflow run's log, numbered from 1 per run (the SSE `id:`). */
export interface WorkflowEventRecord {
  seq: number;
  event: AgentEvent;
}

/** Who executes a run, and until when, unless they renew: one process at a time carries a run. */
export interface RunLease {
  /** `host:pid:nonce` of the process (a holder on this host whose pid is gone holds nothing). */
  holder: string;
  /** Epoch ms the lease ends at. */
  until: number;
}

/** What `listRuns` filters on. */
export interface WorkflowRunQuery {
  workflowId?: string;
  status?: WorkflowStatus;
  /** Only this principal's runs. */
  owner?: string;
  /** At most this many (1 to 1000). */
  limit: number;
  /** Only runs created before this epoch ms (the `createdAt` of the last run of the previous page). */
  before?: number;
}

/**
 * Where a workflow's runs and step checkpoints live. Each method is one commit. The writes the engine
 * makes on every run (`createRun`, `updateRun`, `saveStep`, `claimRun`, `releaseRun`) may answer at once
 * instead of with a promise (the memory and SQLite stores do): a run of plain function steps then
 * waits for nothing.
 */
export interface WorkflowStore {
  createRun(run: WorkflowRunRecord, steps?: Record<string, StepRecord>): void | Promise<void>;
  getRun(runId: string): Promise<WorkflowRunRecord | undefined>;
  updateRun(runId: string, patch: Partial<Omit<WorkflowRunRecord, 'id'>>): void | Promise<void>;
  loadSteps(runId: string): Promise<Record<string, StepRecord>>;
  saveStep(runId: string, path: string, record: StepRecord): void | Promise<void>;
  /** The checkpoints at `paths` alone (a queue worker reads its step's, not the run's thousands). */
  loadStepsAt?(runId: string, paths: string[]): Promise<Record<string, StepRecord>>;
  /** Drops checkpoints (a resumed suspend is re-run). */
  deleteSteps(runId: string, paths: string[]): Promise<void>;
  /** Runs newest first (by `createdAt`), filtered; `before` pages on from the last one's `createdAt`. */
  listRuns?(query: WorkflowRunQuery): Promise<WorkflowRunRecord[]>;
  /** Ids of the runs in `status` (`thinkflow serve` resumes those left `running` at start-up). */
  runIdsWithStatus?(status: WorkflowStatus): Promise<string[]>;
  /**
   * Appends events to the run's log, numbered after the last (several processes may append to one run:
   * its orchestrator and the queue workers running its steps). One commit.
   */
  appendEvents?(runId: string, events: AgentEvent[]): Promise<void>;
  /** The run's events after `afterSeq`, oldest first, at most `limit`. */
  readEvents?(runId: string, afterSeq: number, limit?: number): Promise<WorkflowEventRecord[]>;
  /**
   * Takes or renews the run's lease for `lease.holder` when nobody else holds a live one (expired, or
   * released, or `expected` is the holder seen before and is known dead). True if it is now this holder's.
   */
  claimRun?(runId: string, lease: RunLease, expected?: RunLease): boolean | Promise<boolean>;
  /** The run's current lease, if any. */
  leaseOf?(runId: string): Promise<RunLease | undefined>;
  /** Gives the lease up if `holder` has it. */
  releaseRun?(runId: string, holder: string): void | Promise<void>;
  /** True for a store only this process sees (in memory): its leases need no renewal. */
  readonly local?: boolean;
  close?(): void | Promise<void>;
}

/** A suspended step, as a result lists it. */
export interface SuspendedStep {
  path: string;
  stepId: string;
  payload?: unknown;
  /** Set for `.waitForEvent`: the event name a resume must carry. */
  event?: string;
}

/** The outcome of `workflow.run`, `resume` and `fork`. */
export interface WorkflowResult<O = unknown> {
  runId: string;
  workflowId: string;
  status: Exclude<WorkflowStatus, 'running'>;
  output?: O;
  /** Every checkpointed step by path (`0.fetch`, `2.docs[3]`), with its output. */
  steps: Record<string, StepRecord>;
  /** What the run waits for when `suspended`. */
  suspended: SuspendedStep[];
  /** Summed over the agents inside (and the runs this one was forked from, for reused steps). */
  usage: RunUsage;
  error?: RunError;
  durationMs: number;
}

/** Options of `run`, `resume` and `fork`. */
export interface WorkflowRunOptions {
  /** Checkpoints go here; default an in-memory store (not durable). */
  store?: WorkflowStore;
  runId?: string;
  /** Recorded on a new run (a start or a fork) as its owner. */
  owner?: string;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /**
   * How long the run's lease in the store lasts unless renewed (every third of it). A process that dies
   * holds its runs this long before another may resume them (at once on the same host). Default 30000 ms.
   */
  leaseMs?: number;
  /**
   * Queue mode: each leaf step runs where this sends it (`queueStepDispatch` from `thinkflow/queue`:
   * a `thinkflow worker`), the rest of the run (order, branches, loops, sleeps, events) here. Needs a
   * store the workers share (PostgreSQL). Default: every step runs in this process.
   */
  dispatch?: StepDispatch;
}

/** What `resume` brings to a suspended run. Without `step` or `event`, a run that crashed just continues. */
export interface ResumeRequest {
  /** The suspended step's id or path. */
  step?: string;
  /** The event a `.waitForEvent` waits for. */
  event?: string;
  payload?: unknown;
}
