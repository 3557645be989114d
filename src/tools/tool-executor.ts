import { errorMessage, type ReadToolCall, type StepJournal } from '../core/index.js';
import { type Approver, createApprovalGate } from './approval-gate.js';
import { CallBatch } from './call-batch.js';
import { type CallScheduler, createCallScheduler } from './call-scheduler.js';
import { coerceArguments } from './coerce-arguments.js';
import { fitsWithin } from './fits-within.js';
import { runJournaledCall } from './journaled-call.js';
import type { NestedCalls } from './nested-calls.js';
import { isRetryableError, retryDelay } from './retryable-tool-error.js';
import { type LazySignal, runWithTimeout, sleep, startTimed, type TimedOutcome } from './run-with-timeout.js';
import { serializeOutput } from './serialize-output.js';
import { streamExecution, type ToolExecution } from './stream-execution.js';
import type { AnyTool, Logger, ToolContext } from './tool.js';
import { type CallScope, ToolCallContext } from './tool-call-context.js';
import { toolMedia } from './tool-media.js';
import { type ToolEndRecord, type ToolErrorKind, type ToolStartRecord, toEndRecord } from './tool-records.js';
import type { ToolRegistry } from './tool-registry.js';
import { charsWithinTokens, truncateObservation } from './truncate-observation.js';

export interface ToolExecutorOptions {
  /** Where names resolve; tools that fail `maxFailures` times are disabled in it (use `registry.fork()` per run). */
  registry: ToolRegistry;
  runId?: string;
  /** Calls running at once. Default 4. */
  concurrency?: number;
  /** Failures (throws and timeouts) before a tool is disabled for the run. Default 3. */
  maxFailures?: number;
  /** Characters per observation (and per recorded input) before head + tail truncation. Default 4000. */
  observationLimit?: number;
  /**
   * Tokens per tool result instead, when the limit comes from a token budget: each result is cut at the
   * characters that many tokens hold in its own script (`charsWithinTokens`), so a Chinese result is not
   * four times over. A tool's own `outputLimit` still wins.
   */
  observationTokens?: number;
  /**
   * Keep the whole text of an output that was cut (`ToolCallRecord.full`) and name `recall_result` in
   * the cut marker, for a run that offers that tool. Default false.
   */
  recallCut?: boolean;
  /** Per-call timeout for tools without `timeoutMs`. Default 60000. */
  timeoutMs?: number;
  /** Retries for tools without `retries` (RetryableToolError and network errors only). Default 2. */
  retries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 200. */
  retryDelayMs?: number;
  /** Decides `needsApproval` calls. Without it they are denied with a message saying how to allow them. */
  approve?: Approver;
  /** Answers `ctx.ask(question)` (the `ask_user` tool), told which call asks; without it tools see no `ask`. */
  ask?: (question: string, call: { callId: string; tool: string }) => Promise<string>;
  /** The calling run, handed to tools as `ctx.parent` (agents used as tools nest under it). */
  parent?: ToolContext['parent'];
  /**
   * A durable engine's journal: each call's run (its timeout and retries inside) is one step of it,
   * recorded once and answered from the record on replay. Tools that `replay` are not steps.
   */
  journal?: StepJournal;
  logger?: Logger;
}

export interface ExecuteOptions {
  /** Aborts running tools (their observation says so) and refuses calls not yet started. */
  signal?: AbortSignal;
  onStart?: (record: ToolStartRecord) => void;
  onEnd?: (record: ToolEndRecord) => void;
  /** A call waits (for a person's approval or a free slot) before it starts: a durable run records that it has not started. */
  onWait?: (callId: string) => void;
  /**
   * Awaited before a call that waited starts (a durable run records that it may now run). When it
   * fails, the call is not made and its observation says why.
   */
  beforeStart?: (callId: string) => void | Promise<void>;
  /** Told each successful call's output as the tool returned it (code mode hands it to the program as JSON). */
  onValue?: (index: number, value: unknown) => void;
  /** Gives each call's tool a `ctx.nested`, for tools that call tools (code mode), nested under the call. */
  nest?: (callId: string, tool: string) => NestedCalls;
  /** Under a journal, where these calls sit in the run (the step's index): a call's step key is `<this>/<callId>`. */
  journalKey?: string;
}

export interface ToolExecutor {
  readonly registry: ToolRegistry;
  /** Runs the calls (concurrently up to the cap) and resolves with their records in call order. Never rejects for tool problems. */
  execute(calls: readonly ReadToolCall[], options?: ExecuteOptions): Promise<ToolEndRecord[]>;
  /**
   * The same as `execute`, but the records come back directly when every call finished at once
   * (synchronous tools with a free slot), so a caller in a hot loop awaits only what waits.
   */
  executeNow(calls: readonly ReadToolCall[], options?: ExecuteOptions): ToolEndRecord[] | Promise<ToolEndRecord[]>;
  /**
   * The same as `execute`, as an async stream: `start`/`end` as they happen, then `done` with the ordered
   * records. Leaving the stream early (`break`) aborts the calls still running.
   */
  stream(calls: readonly ReadToolCall[], options?: { signal?: AbortSignal }): AsyncGenerator<ToolExecution>;
  /** Failures counted so far for a tool in this run. */
  failures(tool: string): number;
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * One run's executor: its options resolved once, and the failures counted so far. The executor's
 * functions take it as their first argument, so a run makes this one object, not a closure per function.
 */
interface RunExecutor {
  registry: ToolRegistry;
  maxFailures: number;
  observationLimit: number;
  observationTokens: number | undefined;
  recallCut: boolean;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  journal: StepJournal | undefined;
  logger: Logger;
  scheduler: CallScheduler;
  approval: ReturnType<typeof createApprovalGate>;
  /** What every call's context shares: the run, its logger, who approves and answers, the parent run. */
  scope: CallScope;
  /** Made at a tool's first failure (most runs have none). */
  failureCounts: Map<string, number> | undefined;
}

/** A call whose tool resolved and whose arguments validated: what runs once it is approved and has a slot. */
interface Admitted {
  exec: RunExecutor;
  call: ReadToolCall;
  index: number;
  tool: AnyTool;
  input: unknown;
  opts: ExecuteOptions;
  /** Where the call's record goes when it ends. */
  batch: CallBatch;
  /** Set as the call starts: its start record, when it began (`performance.now()`), and how its slot is freed. */
  start: ToolStartRecord | undefined;
  began: number;
  release: () => void;
}

/** A call refused before it ran: what the model sent, and why. */
interface Refusal {
  call: ReadToolCall;
  index: number;
  tool: string | undefined;
  input: unknown;
  message: string;
  kind: ToolErrorKind;
  opts: ExecuteOptions;
}

const noRelease = () => {};

/**
 * Runs tool calls for one run: resolves names forgivingly, coerces and validates arguments,
 * asks for approval, applies timeouts, retries and the concurrency cap, and turns every problem
 * into an observation the model can act on. Create one per run.
 *
 * @example
 * const executor = createToolExecutor({ registry: registry.fork(), runId });
 * const records = await executor.execute(calls, { signal, onStart, onEnd });
 * const observation = records.map((r) => r.output).join('\n');
 */
export function createToolExecutor(options: ToolExecutorOptions): ToolExecutor {
  const { registry, runId = 'run', logger = silent } = options;
  const approval = createApprovalGate(options.approve);
  const exec: RunExecutor = {
    registry,
    maxFailures: options.maxFailures ?? 3,
    observationLimit: options.observationLimit ?? 4000,
    observationTokens: options.observationTokens,
    recallCut: options.recallCut === true,
    timeoutMs: options.timeoutMs ?? 60_000,
    retries: options.retries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 200,
    journal: options.journal,
    logger,
    scheduler: createCallScheduler(options.concurrency ?? 4),
    approval,
    scope: { runId, logger, approve: approval.ask, ask: options.ask, parent: options.parent },
    failureCounts: undefined,
  };
  const executeNow = (calls: readonly ReadToolCall[], opts: ExecuteOptions = {}) => {
    const batch = new CallBatch(calls.length);
    for (let index = 0; index < calls.length; index++) runCall(exec, calls[index], index, opts, batch);
    return batch.result();
  };
  const execute = async (calls: readonly ReadToolCall[], opts: ExecuteOptions = {}) => executeNow(calls, opts);
  return {
    registry,
    execute,
    executeNow,
    stream: (calls, opts = {}) =>
      streamExecution(opts.signal, (callbacks) => execute(calls, { ...opts, ...callbacks })),
    failures: (tool) => exec.failureCounts?.get(tool) ?? 0,
  };
}

/** A recorded input: long strings and large objects cut as observations are. */
function limitInput({ observationLimit }: RunExecutor, input: unknown): unknown {
  if (typeof input === 'string') return truncateObservation(input, observationLimit);
  if (typeof input !== 'object' || input === null || fitsWithin(input, observationLimit)) return input;
  const text = serializeOutput(input);
  return text.length > observationLimit ? truncateObservation(text, observationLimit) : input;
}

/** Tells a subscriber; one that throws is logged, never the call's problem. */
function notify<R>(exec: RunExecutor, callback: ((record: R) => void) | undefined, record: R): void {
  if (!callback) return;
  try {
    callback(record);
  } catch (error) {
    exec.logger.warn('tool event subscriber threw', { error: errorMessage(error) });
  }
}

/** A call that did not run: its start and end records, with the reason as its observation. */
function refuse(exec: RunExecutor, refusal: Refusal, attempts = 0): ToolEndRecord {
  const { call, index, tool, input, message, kind, opts } = refusal;
  const start: ToolStartRecord = { index, id: call.id, name: call.name, tool, input: limitInput(exec, input) };
  notify(exec, opts.onStart, start);
  const end = toEndRecord(start, truncateObservation(message, exec.observationLimit), 0, attempts, kind);
  notify(exec, opts.onEnd, end);
  return end;
}

/** The tool's run with the context of this call (for a retry or a journaled call, which are rare). */
function timedRun(admitted: Admitted) {
  return (handle: LazySignal) => runAdmitted(handle, admitted);
}

// What `invoke` hands the timed run: functions of the call, not closures made for each call (docs/loop.md).
function runAdmitted(handle: LazySignal, { exec, tool, input, call, opts }: Admitted) {
  return tool.run(input, new ToolCallContext(exec.scope, handle, call.id, tool.name, opts.nest));
}

function retryable(exec: RunExecutor, tool: AnyTool, outcome: TimedOutcome<unknown>, attempts: number): boolean {
  return outcome.type === 'error' && attempts <= (tool.retries ?? exec.retries) && isRetryableError(outcome.error);
}

/** Runs the tool again while it fails with a retryable error (up to its retries, with backoff). */
async function withRetries(
  admitted: Admitted,
  first: TimedOutcome<unknown> | Promise<TimedOutcome<unknown>>,
): Promise<{ outcome: TimedOutcome<unknown>; attempts: number }> {
  const { exec, tool, call, opts } = admitted;
  const { signal } = opts;
  let pending = first;
  for (let attempts = 1; ; attempts++) {
    const outcome = await pending;
    if (outcome.type !== 'error' || !retryable(exec, tool, outcome, attempts)) return { outcome, attempts };
    const delay = retryDelay(outcome.error, attempts, exec.retryDelayMs);
    exec.logger.debug(`retrying tool ${tool.name}`, {
      callId: call.id,
      attempt: attempts,
      delayMs: delay,
      error: errorMessage(outcome.error),
    });
    if (!(await sleep(delay, signal))) return { outcome: { type: 'aborted' } as const, attempts };
    pending = runWithTimeout(timedRun(admitted), { timeoutMs: tool.timeoutMs ?? exec.timeoutMs, signal });
  }
}

/** Counts a tool's failure; at `maxFailures` the tool is disabled for the run, and the message says so. */
function fail(exec: RunExecutor, tool: AnyTool, message: string): string {
  exec.failureCounts ??= new Map();
  const count = (exec.failureCounts.get(tool.name) ?? 0) + 1;
  exec.failureCounts.set(tool.name, count);
  if (count < exec.maxFailures) return message;
  exec.registry.disable(tool.name, `it failed ${count} times`);
  return `${message}\nTool ${tool.name} has failed ${count} times in this run and is now disabled; do not call it again.`;
}

/** Hands a call's record to its batch. */
function deliver(admitted: Admitted, record: ToolEndRecord): void {
  admitted.batch.set(admitted.index, record);
}

/**
 * One call: resolve, validate and approve it, then run it in a slot. Its record goes to the batch,
 * at once when nothing waits.
 */
function runCall(exec: RunExecutor, call: ReadToolCall, index: number, opts: ExecuteOptions, batch: CallBatch): void {
  const { registry } = exec;
  const lookup = registry.lookup(call.name);
  if (!lookup.ok) {
    const kind = lookup.reason === 'unknown' ? 'unknown_tool' : 'disabled';
    const tool = registry.get(call.name)?.name;
    batch.set(index, refuse(exec, { call, index, tool, input: call.input, message: lookup.message, kind, opts }));
    return;
  }
  const tool = lookup.tool;
  const args = coerceArguments(tool, call.input);
  if (!args.ok) {
    const refusal: Refusal = {
      call,
      index,
      tool: tool.name,
      input: call.input,
      message: args.message,
      kind: 'invalid_input',
      opts,
    };
    batch.set(index, refuse(exec, refusal));
    return;
  }
  const admitted: Admitted = {
    exec,
    call,
    index,
    tool,
    input: args.value,
    opts,
    batch,
    start: undefined,
    began: 0,
    release: noRelease,
  };
  const denial = exec.approval.gate(tool, args.value, call.id);
  if (denial === undefined) {
    const waiting = inSlot(admitted, false);
    if (waiting) batch.follow(waiting);
    return;
  }
  opts.onWait?.(call.id);
  batch.follow(
    denial.then((denied) =>
      denied === undefined
        ? inSlot(admitted, true)
        : deliver(
            admitted,
            refuse(exec, { call, index, tool: tool.name, input: args.value, message: denied, kind: 'denied', opts }),
          ),
    ),
  );
}

/**
 * Takes a slot, waiting only when the cap is reached or a sequential tool runs. Returns what it
 * waits on, if anything, for the batch to follow.
 */
function inSlot(admitted: Admitted, waited: boolean): Promise<void> | undefined {
  const { scheduler } = admitted.exec;
  const exclusive = admitted.tool.sequential === true;
  const release = scheduler.tryAcquire(exclusive);
  if (release) return waited ? afterWait(admitted, release) : invoke(admitted, release);
  if (!waited) admitted.opts.onWait?.(admitted.call.id);
  return scheduler.acquire(exclusive).then((later) => afterWait(admitted, later));
}

/** Starts a call that waited once `beforeStart` is done; refuses it (and frees its slot) if that fails. */
async function afterWait(admitted: Admitted, release: () => void): Promise<void> {
  const { exec, call, index, tool, input, opts } = admitted;
  try {
    await opts.beforeStart?.(call.id);
  } catch (error) {
    release();
    const message = `The call to ${tool.name} was not made: recording its start failed (${errorMessage(error)}).`;
    deliver(admitted, refuse(exec, { call, index, tool: tool.name, input, message, kind: 'failed', opts }));
    return;
  }
  invoke(admitted, release);
}

/**
 * Runs a call that holds a slot and frees the slot as the call ends, unless the run was aborted or
 * the tool disabled while it waited. A synchronous tool ends here; an asynchronous one costs the
 * promise it returned and one `then`, and its record reaches the batch from there.
 */
function invoke(admitted: Admitted, release: () => void): undefined {
  const { exec, call, index, tool, input, opts } = admitted;
  const { signal } = opts;
  const { registry, journal } = exec;
  let refusal: string | undefined;
  let kind: ToolErrorKind = 'aborted';
  if (signal?.aborted) refusal = `Tool ${tool.name} was aborted before it ran.`;
  else if (!registry.isEnabled(tool.name)) {
    // A tool disabled by a concurrent failure while this call waited must not run.
    const again = registry.lookup(tool.name);
    refusal = again.ok ? `Tool ${tool.name} is disabled.` : again.message;
    kind = 'disabled';
  }
  if (refusal !== undefined) {
    release();
    deliver(admitted, refuse(exec, { call, index, tool: tool.name, input, message: refusal, kind, opts }));
    return;
  }
  const start: ToolStartRecord = {
    index,
    id: call.id,
    name: call.name,
    tool: tool.name,
    input: limitInput(exec, input),
  };
  notify(exec, opts.onStart, start);
  admitted.start = start;
  admitted.began = performance.now();
  admitted.release = release;
  if (journal && tool.replays !== true) return invokeJournaled(admitted, journal);
  let now: TimedOutcome<unknown> | undefined;
  try {
    const timing = { timeoutMs: tool.timeoutMs ?? exec.timeoutMs, signal, startedAt: admitted.began };
    now = startTimed(runAdmitted, timing, settleLater, admitted);
  } catch (error) {
    release();
    throw error;
  }
  if (now) ended(admitted, now);
}

/** A call that ended later: called from a `then`, so a throw here (a bug, not a tool's) rejects the batch, never goes unhandled. */
function settleLater(outcome: TimedOutcome<unknown>, admitted: Admitted): void {
  try {
    ended(admitted, outcome);
  } catch (error) {
    admitted.batch.fail(error);
  }
}

/** A started call's first outcome: retried while it fails with a retryable error, else its record. */
function ended(admitted: Admitted, outcome: TimedOutcome<unknown>): void {
  if (!retryable(admitted.exec, admitted.tool, outcome, 1)) {
    end(admitted, outcome, 1);
    return;
  }
  const retried = withRetries(admitted, outcome);
  admitted.batch.follow(retried.then((r) => end(admitted, r.outcome, r.attempts)));
}

/** Frees the call's slot and hands its record to the batch. */
function end(admitted: Admitted, outcome: TimedOutcome<unknown>, attempts: number): void {
  admitted.release();
  deliver(admitted, finish(admitted, outcome, attempts));
}

/** A call under a durable engine's journal: its run, timeout and retries included, is one step. */
function invokeJournaled(admitted: Admitted, journal: StepJournal): undefined {
  const { exec, call, tool, input, opts } = admitted;
  const { signal } = opts;
  const timed = () => runWithTimeout(timedRun(admitted), { timeoutMs: tool.timeoutMs ?? exec.timeoutMs, signal });
  const key = opts.journalKey === undefined ? call.id : `${opts.journalKey}/${call.id}`;
  const ran = runJournaledCall({
    journal,
    tool,
    input,
    key,
    signal,
    attempt: () => withRetries(admitted, timed()),
  });
  admitted.batch.follow(ran.then(({ outcome, attempts }) => end(admitted, outcome, attempts)));
  return undefined;
}

/** Turns how the tool ended into the call's observation and end record. */
function finish(admitted: Admitted, outcome: TimedOutcome<unknown>, attempts: number): ToolEndRecord {
  const { exec, tool, opts } = admitted;
  const start = admitted.start!;
  const { observationLimit, recallCut } = exec;
  const durationMs = Math.round((performance.now() - admitted.began) * 1000) / 1000;
  let output: string;
  let errorKind: ToolErrorKind | undefined;
  let media: ToolEndRecord['media'];
  let full: string | undefined;
  if (outcome.type === 'ok') {
    opts.onValue?.(start.index, outcome.value);
    const parts = toolMedia(outcome.value);
    media = parts?.media;
    const text = parts ? parts.text : serializeOutput(outcome.value);
    const { observationTokens } = exec;
    const limit =
      tool.outputLimit ??
      (observationTokens === undefined ? observationLimit : charsWithinTokens(text, observationTokens));
    output = truncateObservation(text, limit, recallCut ? { callId: start.id } : undefined);
    if (recallCut && output !== text) full = text;
  } else {
    let error: string;
    errorKind = outcome.type === 'error' ? 'failed' : outcome.type;
    const timeout = tool.timeoutMs ?? exec.timeoutMs;
    if (outcome.type === 'aborted') error = `Tool ${tool.name} was aborted.`;
    else if (outcome.type === 'timeout') error = fail(exec, tool, `Tool ${tool.name} timed out after ${timeout} ms.`);
    else error = fail(exec, tool, `Tool ${tool.name} failed: ${errorMessage(outcome.error)}`);
    output = truncateObservation(error, observationLimit);
  }
  const end = toEndRecord(start, output, durationMs, attempts, errorKind, media, full);
  notify(exec, opts.onEnd, end);
  return end;
}
