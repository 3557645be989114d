import type { ExecuteOptions } from './tool-executor.js';
import type { ToolEndRecord, ToolStartRecord } from './tool-records.js';

/** One item of `executor.stream()`: a call started, a call ended, or all calls ended (records in call order). */
export type ToolExecution =
  | { type: 'start'; record: ToolStartRecord }
  | { type: 'end'; record: ToolEndRecord }
  | { type: 'done'; records: ToolEndRecord[] };

/**
 * Turns a callback-driven execution into an async generator, so a loop written as a generator
 * can yield `tool_start`/`tool_end` events while calls are still running.
 */
export async function* streamExecution(
  run: (callbacks: Pick<ExecuteOptions, 'onStart' | 'onEnd'>) => Promise<ToolEndRecord[]>,
): AsyncGenerator<ToolExecution> {
  const queue: ToolExecution[] = [];
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  const push = (item: ToolExecution) => {
    queue.push(item);
    wake?.();
  };
  run({
    onStart: (record) => push({ type: 'start', record }),
    onEnd: (record) => push({ type: 'end', record }),
  }).then(
    (records) => push({ type: 'done', records }),
    (error: unknown) => {
      failure = { error };
      wake?.();
    },
  );
  for (let read = 0; ; ) {
    while (read < queue.length) {
      const item = queue[read++];
      yield item;
      if (item.type === 'done') return;
    }
    if (failure) throw failure.error;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
}
