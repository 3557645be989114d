import { errorMessage, isThinkflowError, type RunResult } from '../core/index.js';
import type { StopReason } from './guards/index.js';
import type { Emit } from './loop-config.js';
import { event, type RunState } from './run-state.js';

/** A thrown error as the reason a run failed. */
export function failure(error: unknown): StopReason {
  return { status: 'failed', code: isThinkflowError(error) ? error.code : 'error', message: errorMessage(error) };
}

/**
 * Folds a finished run into its RunResult, lets `onFinish` see it (cost, memory), then emits
 * `run_end`. The agent loop and the planning loop end the same way.
 */
export async function endRun(
  state: RunState,
  stop: StopReason | undefined,
  final: { output: string; object?: unknown },
  emit: Emit,
  onFinish?: (result: RunResult, emit: Emit, state: RunState) => Promise<void>,
): Promise<RunResult> {
  const result: RunResult = {
    runId: state.runId,
    status: stop ? stop.status : 'done',
    output: final.output,
    object: final.object,
    steps: state.steps,
    usage: state.usage,
    stats: state.stats,
    durationMs: Date.now() - state.startedAt,
    error: stop ? { code: stop.code, message: stop.message } : undefined,
  };
  await onFinish?.(result, emit, state);
  emit(
    event(state, 'run_end', {
      status: result.status,
      output: result.output,
      usage: result.usage,
      durationMs: result.durationMs,
      error: result.error,
    }),
  );
  return result;
}
