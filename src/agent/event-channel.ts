import type { AgentEvent } from '../core/index.js';

/** A push-to-pull queue: the loop pushes events, a `for await` consumer pulls them. */
export interface EventChannel extends AsyncIterable<AgentEvent> {
  push(event: AgentEvent): void;
  close(): void;
  fail(error: unknown): void;
}

export function createEventChannel(): EventChannel {
  const buffer: AgentEvent[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(event) {
      buffer.push(event);
      notify();
    },
    close() {
      done = true;
      notify();
    },
    fail(error) {
      failure = { error };
      done = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      let read = 0;
      while (true) {
        while (read < buffer.length) yield buffer[read++];
        buffer.length = 0;
        read = 0;
        if (failure) throw failure.error;
        if (done) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

/**
 * A run as a stream: `start` runs with an `onEvent` that also feeds the stream (after the caller's own
 * `onEvent`, if any); the stream ends when the run settles.
 */
export function streamRun(
  onEvent: ((event: AgentEvent) => void) | undefined,
  start: (onEvent: (event: AgentEvent) => void) => Promise<unknown>,
): AsyncIterable<AgentEvent> {
  const channel = createEventChannel();
  start((event) => {
    onEvent?.(event);
    channel.push(event);
  }).then(
    () => channel.close(),
    (error: unknown) => channel.fail(error),
  );
  return channel;
}
