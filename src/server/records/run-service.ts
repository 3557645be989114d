import type { Checkpoint } from '../../agent/index.js';
import type { Message } from '../../core/index.js';
import type { Readiness } from '../health/index.js';
import { DEFAULT_LIMITS, type ServerLimits } from '../health/index.js';
import { newRunId } from './new-run-id.js';
import type { Answer } from './question-box.js';
import type { RunPage, RunQuery } from './run-listing.js';
import type { CallerOptions, RunRecord, RunSource, ServerRunStatus, StoredEvent } from './run-record.js';

/** Why a run could not be started, as data the HTTP layer maps to a status code. */
export type StartResult =
  /** `replayed`: the request's Idempotency-Key had started this run already; nothing new was started. */
  | { ok: true; run: RunRecord; replayed?: boolean }
  | { ok: false; reason: 'unknown_agent' }
  | { ok: false; reason: 'queue_full'; retryAfterSeconds: number }
  /** The Idempotency-Key was used for another request (another body, route or query). */
  | { ok: false; reason: 'idempotency_mismatch'; runId: string }
  | { ok: false; reason: 'invalid_idempotency_key' }
  /** Another run of the same agent answers the thread now, and the thread shares one workspace (409). */
  | { ok: false; reason: 'thread_busy'; runId: string; message: string };

/** An Idempotency-Key and a fingerprint of the request that carries it. */
export interface IdempotencyRequest {
  key: string;
  fingerprint: string;
}

/** What forks a stored agent run (POST /v1/runs/:id/fork): the step to run again from, and what the model sees there. */
export interface ForkRequest {
  fromStep: number;
  /** Replaces the conversation the model sees at `fromStep` (system prompt included). */
  messages?: Message[];
  /** The principal forking it; the fork is theirs. */
  owner?: string;
  idempotency?: IdempotencyRequest;
}

/** A fork started (as a start is), or why not: no such run, or a step or messages it cannot start from. */
export type ForkResult =
  | StartResult
  | { ok: false; reason: 'unknown_run' }
  | { ok: false; reason: 'invalid_fork'; message: string };

/** A fork's first checkpoint (`forkStartRequest`), written under the new run's id before the run starts. */
export type ForkStart = Omit<Checkpoint, 'runId'>;

/** What starts a run. */
export interface StartRequest {
  agent: string;
  input: string;
  history?: Message[];
  source?: RunSource;
  /** The principal starting it; the run is theirs. */
  owner?: string;
  /** Start at most one run per key and owner: a retry with the same key gets the first run back. */
  idempotency?: IdempotencyRequest;
  /** The caller's client-side tools and output schema (an OpenAI request's `tools` and `response_format`). */
  caller?: CallerOptions;
  /** A fork's first checkpoint (`forkStartRequest`): the run resumes from it instead of starting fresh. */
  fork?: ForkStart;
  /** The conversation thread the run is a turn of (`RunRecord.thread`). */
  thread?: string;
}

/** The record of a run just started, waiting its turn: the same in every run service. */
export function queuedRun(
  { agent, input, history, source = 'api', owner, caller, fork, thread }: StartRequest,
  id = newRunId(),
): RunRecord {
  const now = Date.now();
  const run: RunRecord = { id, agent, input, history, status: 'queued', source, createdAt: now, updatedAt: now };
  if (owner !== undefined) run.owner = owner;
  if (caller) run.caller = caller;
  if (thread !== undefined) run.thread = thread;
  if (fork?.forkedFrom) run.forkedFrom = fork.edited ? { ...fork.forkedFrom, edited: fork.edited } : fork.forkedFrom;
  return run;
}

/** The refusal when an agent has as many runs waiting as it may (429 with Retry-After). */
export function queueFull(limits: ServerLimits | undefined): StartResult {
  return {
    ok: false,
    reason: 'queue_full',
    retryAfterSeconds: limits?.retryAfterSeconds ?? DEFAULT_LIMITS.retryAfterSeconds,
  };
}

export type AnswerResult = 'answered' | 'not_found' | 'no_question';

/** What a rewind of a run's workspace came to: the snapshot its files are at now, or why not. */
export type RewindResult =
  | { ok: true; run: RunRecord; snapshot?: string }
  | {
      ok: false;
      reason: 'unknown_run' | 'unknown_agent' | 'active' | 'no_workspace' | 'invalid_step';
      message: string;
    };

/**
 * Starts, watches and steers runs. `createLocalRuns` executes them in this process;
 * `createQueueRuns` hands them to `thinkflow worker` processes through BullMQ.
 */
export interface RunService {
  agentNames(): string[];
  start(request: StartRequest): Promise<StartResult>;
  /**
   * Starts a new run from step `fromStep` of agent run `id` (its earlier steps carried over, not run
   * again), with the same Idempotency-Key and queue rules as `start`. Absent where forks are not served.
   */
  fork?(id: string, request: ForkRequest): Promise<ForkResult>;
  /**
   * Puts the workspace of agent run `id` (ended, not running or waiting) back to how it was when step
   * `step` began, and logs that as a `workspace_change` event with `rewound`. Absent where not served.
   */
  rewind?(id: string, step: number): Promise<RewindResult>;
  get(id: string): Promise<RunRecord | undefined>;
  /** Where the run stands (undefined if unknown), without reading its input and result. */
  status(id: string): Promise<ServerRunStatus | undefined>;
  /** A page of run summaries, newest first (GET /v1/runs). */
  list(query: RunQuery): Promise<RunPage>;
  /** Logged events after `afterSeq`, in order. */
  events(id: string, afterSeq: number): Promise<StoredEvent[]>;
  /** Resolves at the run's next change (event or status), or after `timeoutMs`. */
  changed(id: string, timeoutMs: number): Promise<void>;
  /** Resolves once the run ended (undefined if unknown), or when the signal aborts. */
  wait(id: string, signal?: AbortSignal): Promise<RunRecord | undefined>;
  /** Asks the run to stop; it ends `aborted`. */
  cancel(id: string): Promise<RunRecord | undefined>;
  answer(id: string, answer: Answer & { questionId?: string }): Promise<AnswerResult>;
  /** Whether the services runs depend on answer (`GET /ready`); absent when there are none to check. */
  ready?(): Promise<Readiness>;
  /** Stops taking runs; running ones get `timeoutMs` to finish, then are left checkpointed to resume. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}
