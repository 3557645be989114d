import { isThenable } from '../core/index.js';
import { type Deadline, deadline } from './deadlines.js';

/** How a timed run ended. Never a throw: the executor turns each case into an observation. */
export type TimedOutcome<T> =
  | { type: 'ok'; value: T }
  | { type: 'error'; error: unknown }
  | { type: 'timeout' }
  | { type: 'aborted' };

/** How long a timed run may take, and the caller's signal. */
export interface TimedOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** `performance.now()` as the run starts, when the caller has just read it (saves the deadline a clock read). */
  startedAt?: number;
}

/** An abort signal made only when first read. */
export interface LazySignal {
  readonly signal: AbortSignal;
}

/**
 * Runs `fn` with its own AbortSignal, which is aborted when `timeoutMs` passes or the caller's
 * `signal` aborts; the outcome is then `timeout`/`aborted` at once, even if `fn` ignores its
 * signal and never settles. A synchronous result returns without arming a timer.
 *
 * The signal is created only if `fn` reads it: creating an AbortSignal costs tens of µs on
 * Node 20, more than everything else a tool call does, and most tools never look at it.
 */
export function runWithTimeout<T>(
  fn: (handle: LazySignal) => T | PromiseLike<T>,
  options: TimedOptions,
): TimedOutcome<T> | Promise<TimedOutcome<T>> {
  let settle!: (outcome: TimedOutcome<T>) => void;
  const later = new Promise<TimedOutcome<T>>((resolve) => {
    settle = resolve;
  });
  return startTimed(fn, options, settle, undefined) ?? later;
}

/**
 * `runWithTimeout` without a promise of its own, for the executor's hot path: the outcome is
 * returned when it is known at once (a synchronous result or throw, or a signal already aborted);
 * otherwise this returns undefined and hands the outcome to `settle` exactly once, later. The caller
 * then pays for no promise but the one `fn` returned (see docs/loop.md). `settle` must not throw.
 * `fn` and `settle` get `context` too, so a caller can pass the same two functions for every run.
 */
export function startTimed<T, C>(
  fn: (handle: LazySignal, context: C) => T | PromiseLike<T>,
  options: TimedOptions,
  settle: (outcome: TimedOutcome<T>, context: C) => void,
  context: C,
): TimedOutcome<T> | undefined {
  const { signal } = options;
  if (signal?.aborted) return { type: 'aborted' };
  const run = new TimedRun<T, C>(settle, context);
  let value: T | PromiseLike<T>;
  try {
    value = fn(run, context);
  } catch (error) {
    return { type: 'error', error };
  }
  if (!isThenable(value)) return { type: 'ok', value };
  run.watch(value, options);
  return undefined;
}

const ONCE = { once: true } as const;

/**
 * One timed run: the lazy AbortSignal the function sees, and the race between its promise, the
 * deadline and the caller's signal. One object per call: it is its own abort listener
 * (`handleEvent`), so watching the caller's signal costs no closure.
 */
class TimedRun<T, C> implements LazySignal {
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;
  #settle: ((outcome: TimedOutcome<T>, context: C) => void) | undefined;
  readonly #context: C;
  #deadline: Deadline | undefined;
  #outer: AbortSignal | undefined;

  constructor(settle: (outcome: TimedOutcome<T>, context: C) => void, context: C) {
    this.#settle = settle;
    this.#context = context;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#aborted.reason);
    }
    return this.#controller.signal;
  }

  watch(pending: PromiseLike<T>, { timeoutMs, signal: outer, startedAt }: TimedOptions): void {
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      const onTimeout = () => {
        this.#end({ type: 'timeout' });
        this.#abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError'));
      };
      this.#deadline = deadline(timeoutMs, onTimeout, startedAt);
    }
    if (outer) {
      this.#outer = outer;
      outer.addEventListener('abort', this, ONCE);
    }
    pending.then(
      (value) => this.#end({ type: 'ok', value }),
      (error: unknown) => this.#end({ type: 'error', error }),
    );
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.#end({ type: 'aborted' });
    this.#abort(this.#outer?.reason);
  }

  #end(outcome: TimedOutcome<T>): void {
    const settle = this.#settle;
    if (!settle) return;
    this.#settle = undefined;
    this.#deadline?.cancel();
    this.#outer?.removeEventListener('abort', this);
    settle(outcome, this.#context);
  }

  #abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = { reason };
    this.#controller?.abort(reason);
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
