/**
 * Values that are promises only when something had to wait. The workflow engine runs a plain
 * function step on a store that writes at once without a single microtask, and still waits properly
 * for an async step or a store over the network: each stage passes its value on with `andThen`.
 */
export type MaybePromise<T> = T | PromiseLike<T>;

/** Whether `value` is a promise or any other thenable (a value a step or a store returns is either). */
export function isThenable<T>(value: MaybePromise<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `next(value)` now when `value` is plain, else once it resolves (a rejection passes through untouched). */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}
