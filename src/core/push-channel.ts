/**
 * A push-to-pull queue: a producer pushes values, one `for await` consumer pulls them. When the
 * consumer leaves early (`break`, `return()`, a throw in the loop body, or `throw()`), `onStop`
 * runs at once, even while a `next()` is still waiting, so the producer can abort its work.
 */
export interface PushChannel<T> extends AsyncIterableIterator<T> {
  push(value: T): void;
  /** No more values: the consumer's loop ends once it has read what is buffered. */
  close(): void;
  /** The consumer's loop throws `error` once it has read what is buffered. */
  fail(error: unknown): void;
  /** The consumer leaves: ends a waiting `next()` and stops the producer. */
  return(): Promise<IteratorResult<T>>;
  throw(error?: unknown): Promise<IteratorResult<T>>;
}

/** Creates a channel; `onStop` runs once if the consumer stops before the channel is closed. */
export function createPushChannel<T>(onStop?: () => void): PushChannel<T> {
  const buffer: T[] = [];
  let read = 0;
  let ended = false;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }[] = [];
  const DONE: IteratorResult<T> = { done: true, value: undefined };

  const settle = () => {
    while (waiting.length > 0) {
      if (read < buffer.length) {
        waiting.shift()?.resolve({ done: false, value: buffer[read++] });
      } else if (failure && !stopped) {
        waiting.shift()?.reject(failure.error);
        failure = undefined;
        stopped = true;
      } else if (ended || stopped) {
        waiting.shift()?.resolve(DONE);
      } else return;
    }
    // Everything handed out: reuse the array instead of letting it grow for a long run.
    if (read === buffer.length) {
      buffer.length = 0;
      read = 0;
    }
  };

  const stop = () => {
    if (stopped) return;
    stopped = true;
    buffer.length = 0;
    read = 0;
    if (!ended) onStop?.();
    settle();
  };

  const channel: PushChannel<T> = {
    push(value) {
      if (ended || stopped) return;
      buffer.push(value);
      settle();
    },
    close() {
      ended = true;
      settle();
    },
    fail(error) {
      if (ended) return;
      failure = { error };
      ended = true;
      settle();
    },
    next() {
      if (read < buffer.length) {
        const value = buffer[read++];
        return Promise.resolve({ done: false, value });
      }
      if (stopped || (ended && !failure)) return Promise.resolve(DONE);
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        settle();
      });
    },
    return() {
      stop();
      return Promise.resolve(DONE);
    },
    throw(error?: unknown) {
      stop();
      return Promise.reject(error);
    },
    // A function value, not a method written `[Symbol.asyncIterator]() {…}`: a literal with a computed
    // method is built on V8's slow path (about 250 ns on Node 20; one per `agent.stream()` and per request).
    [Symbol.asyncIterator]: self,
  };
  return channel;
}

/**
 * A producer run as a channel: `produce` gets the channel and a signal that fires when the caller's
 * `signal` does or when the consumer leaves early (`break`, `return()`, a throw in the loop body), so
 * no work goes on in the background once nobody reads. The channel closes when `produce` resolves and
 * fails with its error when it rejects. Both `agent.stream()` and `executor.stream()` are this.
 */
export function abortableChannel<T>(
  signal: AbortSignal | undefined,
  produce: (channel: PushChannel<T>, signal: AbortSignal) => Promise<unknown>,
): PushChannel<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const channel = createPushChannel<T>(() => controller.abort(new Error('The consumer stopped reading the stream.')));
  produce(channel, controller.signal)
    .then(
      () => channel.close(),
      (error: unknown) => channel.fail(error),
    )
    .finally(() => signal?.removeEventListener('abort', onAbort));
  return channel;
}

/** An async iterator's `[Symbol.asyncIterator]`: itself. */
function self<I>(this: I): I {
  return this;
}
