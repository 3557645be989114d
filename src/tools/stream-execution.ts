import { abortableChannel } from '../core/index.js';
import type { ToolEndRecord, ToolStartRecord } from './tool-records.js';

/** One item of `executor.stream()`: a call started, a call ended, or all calls ended (records in call order). */
export type ToolExecution =
  | { type: 'start'; record: ToolStartRecord }
  | { type: 'end'; record: ToolEndRecord }
  | { type: 'done'; records: ToolEndRecord[] };

/** The callbacks `run` passes on to the executor (a subset of its `ExecuteOptions`, named here so this file does not import the executor back). */
interface StreamCallbacks {
  signal: AbortSignal;
  onStart: (record: ToolStartRecord) => void;
  onEnd: (record: ToolEndRecord) => void;
}

/**
 * Turns a callback-driven execution into an async generator, so a loop written as a generator
 * can yield `tool_start`/`tool_end` events while calls are still running. Leaving the loop early
 * aborts the calls still running (their signal fires), as the caller's `signal` does.
 */
export function streamExecution(
  signal: AbortSignal | undefined,
  run: (callbacks: StreamCallbacks) => Promise<ToolEndRecord[]>,
): AsyncGenerator<ToolExecution> {
  const items = abortableChannel<ToolExecution>(signal, (channel, linked) =>
    run({
      signal: linked,
      onStart: (record) => channel.push({ type: 'start', record }),
      onEnd: (record) => channel.push({ type: 'end', record }),
    }).then((records) => channel.push({ type: 'done', records })),
  );
  // `yield*` hands the consumer's `return()` on to the channel, which aborts the calls.
  return (async function* () {
    yield* items;
  })();
}
