import { errorMessage, isThinkflowError, type RunResult } from '../../core/index.js';
import type { StopReason } from '../guards/index.js';
import { event, type RunScope } from './run-state.js';

/** A thrown error as the reason a run failed. */
export function failure(error: unknown): StopReason {
  return { status: 'failed', code: isThinkflowError(error) ? error.code : 'error', message: errorMessage(error) };
}

/**
 * Folds a finished run into its RunResult, lets `onFinish` see it (cost, memory), then emits
 * `run_end`. The agent loop and the planning loop end the same way. When `onFinish` has nothing to
 * wait for, the result comes back as it is, not as a promise (docs/loop.md).
 */
export function endRun(
  scope: RunScope,
  final: { stop?: StopReason; output: string; object?: unknown },
  onFinish?: (result: RunResult, scope: RunScope) => void | Promise<void>,
): RunResult | Promise<RunResult> {
  const { state } = scope;
  const { stop } = final;
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
  if (state.forkedFrom) result.forkedFrom = state.forkedFrom;
  const finishing = onFinish?.(result, scope);
  if (finishing instanceof Promise) return finishing.then(() => announceEnd(scope, result));
  return announceEnd(scope, result);
}

/** Emits `run_end` and returns the result. */
function announceEnd({ state, emit }: RunScope, result: RunResult): RunResult {
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
