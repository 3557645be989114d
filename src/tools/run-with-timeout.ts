import { deadline } from './deadlines.js';

/** How a timed run ended. Never a throw: the executor turns each case into an observation. */
export type TimedOutcome<T> =
  | { type: 'ok'; value: T }
  | { type: 'error'; error: unknown }
  | { type: 'timeout' }
  | { type: 'aborted' };

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
  options: { timeoutMs: number; signal?: AbortSignal },
): TimedOutcome<T> | Promise<TimedOutcome<T>> {
  return raceTimeout(fn, options, same);
}

const same = <T>(outcome: T): T => outcome;

/**
 * `runWithTimeout` that hands the outcome straight to `next` (synchronously when `fn` returned a
 * plain value), so a caller on a hot path pays for no promise of its own.
 */
export function raceTimeout<T, R>(
  fn: (handle: LazySignal) => T | PromiseLike<T>,
  options: { timeoutMs: number; signal?: AbortSignal },
  next: (outcome: TimedOutcome<T>) => R | PromiseLike<R>,
): R | Promise<R> {
  const { signal, timeoutMs } = options;
  if (signal?.aborted) return next({ type: 'aborted' }) as R | Promise<R>;
  const controller = new LazyController();
  let value: T | PromiseLike<T>;
  try {
    value = fn(controller);
  } catch (error) {
    return next({ type: 'error', error }) as R | Promise<R>;
  }
  if (!isThenable(value)) return next({ type: 'ok', value }) as R | Promise<R>;
  const pending = value;
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: TimedOutcome<T>) => {
      if (settled) return;
      settled = true;
      timer?.cancel();
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      try {
        resolve(next(outcome));
      } catch (error) {
        reject(error);
      }
    };
    const onAbort = signal
      ? () => {
          finish({ type: 'aborted' });
          controller.abort(signal.reason);
        }
      : undefined;
    const timer =
      timeoutMs > 0 && Number.isFinite(timeoutMs)
        ? deadline(timeoutMs, () => {
            finish({ type: 'timeout' });
            controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError'));
          })
        : undefined;
    if (onAbort) signal?.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (result) => finish({ type: 'ok', value: result }),
      (error: unknown) => finish({ type: 'error', error }),
    );
  });
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

/** Makes its AbortController on first read of `signal` (a class: no per-call accessor closures). */
class LazyController implements LazySignal {
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#aborted.reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = { reason };
    this.#controller?.abort(reason);
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
