import type { AgentEvent } from '../../core/index.js';
import type {
  StepDispatch,
  StepRecord,
  SuspendedStep,
  Workflow,
  WorkflowRequestError,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowStore,
} from '../../workflow/index.js';
import type { IdempotencyRequest, RunStore, StoredEvent } from '../records/index.js';

/** A workflow run as the HTTP API shows it: the stored record with its visible steps and what it waits for. */
export interface WorkflowRunView extends WorkflowRunRecord {
  /** The config name it was started under (`workflows: { name: workflow }`). */
  workflow: string;
  steps: Record<string, StepRecord>;
  suspended: SuspendedStep[];
}

/** A run as a list shows it: the stored record and the config name it runs under. */
export interface WorkflowRunSummary extends WorkflowRunRecord {
  workflow: string;
}

/** Who asks, and with which Idempotency-Key, for a run to start (or be forked). */
export interface WorkflowStartContext {
  owner?: string;
  idempotency?: IdempotencyRequest;
}

/** The outcome of a start or a fork: the run, or why nothing started. */
export type WorkflowStartResult =
  | { ok: true; run: WorkflowRunView; replayed?: boolean }
  | { ok: false; reason: 'unknown_workflow' }
  | { ok: false; reason: 'idempotency_mismatch'; runId: string }
  | { ok: false; reason: 'request'; error: WorkflowRequestError };

/** Options of `workflowRuns`. */
export interface WorkflowRunsOptions {
  /** The config's `workflows`, by name. */
  workflows: Record<string, Workflow>;
  /** Where the runs and their checkpoints live (`sqliteWorkflowStore` in the data dir by default in serve). */
  store: WorkflowStore;
  /** The run store whose Idempotency-Key claims the workflow routes share with the agent routes. */
  claims: Pick<RunStore, 'claimIdempotencyKey' | 'releaseIdempotencyKey'>;
  /** Gets each workflow event (`workflow_start`, `step_start`, ...), as the run emits it. */
  onEvent?: (event: AgentEvent) => void;
  /** Called with a run that failed outside its own error handling (a store outage). */
  onError?: (error: unknown) => void;
  /** Hours an Idempotency-Key holds its run. Default 24. */
  keyHours?: number;
  /** Close `store` with the service. */
  ownStore?: boolean;
  /**
   * How often to look for runs left `running` whose lease expired (their process died) and resume them
   * here, besides at start-up. Default 30000 ms; 0 turns it off.
   */
  recoveryIntervalMs?: number;
  /** Queue mode (`serve --queue`): each run's leaf steps run on `thinkflow worker` processes (`queueStepDispatch`). */
  dispatch?: StepDispatch;
}

/** The workflow runs of a server: started, resumed and forked in this process, kept in the workflow store. */
export interface WorkflowRuns {
  names(): string[];
  /** The workflow served under `name` (its key in the config's `workflows`). */
  definition(name: string): Workflow | undefined;
  start(name: string, input: unknown, context: WorkflowStartContext): Promise<WorkflowStartResult>;
  get(id: string): Promise<WorkflowRunView | undefined>;
  /**
   * Runs newest first, as stored (no steps read), with the config name they run under; `workflow` is that
   * name. Undefined when the store cannot list (a custom one without `listRuns`).
   */
  list(query: Omit<WorkflowRunQuery, 'workflowId'> & { workflow?: string }): Promise<WorkflowRunSummary[] | undefined>;
  /** The stored status alone (no steps read). */
  status(id: string): Promise<WorkflowRunRecord['status'] | undefined>;
  /** Continues a suspended run; resolves once the request is accepted (throws `WorkflowRequestError` if not). */
  resume(id: string, request: { step?: string; event?: string; payload?: unknown }): Promise<WorkflowRunView>;
  fork(
    id: string,
    request: { fromStep: string; input?: unknown },
    context: WorkflowStartContext,
  ): Promise<WorkflowStartResult>;
  /**
   * Cancels a running or suspended run (throws `WorkflowRequestError` for an unknown or ended one). One
   * this process carries has stopped when this resolves; one another process carries stops at its next
   * lease renewal.
   */
  cancel(id: string): Promise<WorkflowRunView>;
  /** Resolves when the run has ended or suspended (at once if it is not running in this process). */
  wait(id: string): Promise<WorkflowRunView | undefined>;
  /** True while the run executes in this process. */
  running(id: string): boolean;
  /**
   * The run's events after `afterSeq`, as the store keeps them (every process's: the one that started it,
   * one that resumed it, the queue workers of its steps), or, with a store that keeps no events, those
   * this process saw.
   */
  events(id: string, afterSeq: number): Promise<StoredEvent[]>;
  /** Resolves when this process wrote events of the run, or after `timeoutMs` (poll: another process may write them). */
  changed(id: string, timeoutMs: number): Promise<void>;
  /** Resumes the runs a stopped process left `running` (crash recovery); returns how many. */
  recover(): Promise<number>;
  /**
   * Waits up to `timeoutMs` (default 10 s) for the runs in flight, then closes the store if this service
   * opened it. A run still going stays `running` in the store: the next start resumes it from its checkpoints.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** What `thinkflow serve` opens its workflow runs with. */
export interface OpenWorkflowRunsOptions extends Pick<WorkflowRunsOptions, 'claims' | 'onError' | 'dispatch'> {
  workflows?: Record<string, Workflow>;
  /** `postgres://…`: the workflow store goes there (schema `pgSchema`, default `thinkflow`). */
  pg?: string;
  pgSchema?: string;
  /** Else SQLite in this data dir (`thinkflow.db`, where `thinkflow workflow run` keeps its runs too). */
  dataDir: string;
}
