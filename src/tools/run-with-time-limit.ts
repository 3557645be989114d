import type { Context, Script } from 'node:vm';
import { nodeBuiltin } from '../core/index.js';

/** Thrown by `runWithTimeLimit` when the function ran too long and was stopped. */
export class TimeLimitError extends Error {
  constructor(readonly limitMs: number) {
    super(`stopped after ${limitMs} ms`);
    this.name = 'TimeLimitError';
  }
}

let watchdog: { context: Context; script: Script } | undefined;

/**
 * Runs a synchronous function and stops it if it runs longer than `limitMs`, which no promise or
 * AbortSignal can do (a busy loop never yields). It uses node:vm's watchdog: the constant script
 * `run()` is executed with a `timeout`, and V8 terminates whatever it is running when the time is
 * up. Only the fixed script text is compiled; the function's inputs stay plain data.
 * Costs a watchdog thread per call (a fraction of a millisecond), so keep it off hot paths.
 * node:vm is reached when first needed: where the runtime has none, the call fails with a `ConfigError`.
 */
export function runWithTimeLimit<T>(fn: () => T, limitMs: number): T {
  if (!watchdog) {
    const vm = nodeBuiltin('node:vm', 'A time-limited calculation');
    watchdog = { context: vm.createContext({ run: undefined }), script: new vm.Script('run()') };
  }
  const { context, script } = watchdog;
  context.run = fn;
  try {
    return script.runInContext(context, { timeout: limitMs }) as T;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new TimeLimitError(limitMs);
    throw error;
  } finally {
    context.run = undefined;
  }
}
