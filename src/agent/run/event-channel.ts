import { type AgentEvent, abortableChannel } from '../../core/index.js';

/** What a streamed run is started with: the event subscriber and the signal that aborts it. */
export interface StreamedRunOptions {
  onEvent: (event: AgentEvent) => void;
  signal: AbortSignal;
}

/**
 * A run as a stream: `start` runs with an `onEvent` that also feeds the stream (after the caller's own
 * `onEvent`, if any) and a signal that fires when the caller's `signal` does or when the consumer
 * leaves the stream early (`break`, `return()`, a throw in the loop body): no model or tool call goes
 * on in the background, and running tools see their signal fire. The stream ends when the run settles.
 */
export function streamRun(
  options: { onEvent?: (event: AgentEvent) => void; signal?: AbortSignal },
  start: (run: StreamedRunOptions) => Promise<unknown>,
): AsyncIterableIterator<AgentEvent> {
  const { onEvent } = options;
  return abortableChannel<AgentEvent>(options.signal, (channel, linked) =>
    start({
      onEvent: (event) => {
        onEvent?.(event);
        channel.push(event);
      },
      signal: linked,
    }),
  );
}
