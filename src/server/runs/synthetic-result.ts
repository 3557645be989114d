import type { AgentEvent, RunError, RunResult, RunStatus } from '../../core/index.js';
import { emptyStats } from '../../core/index.js';
import type { RunRecord, RunStore } from '../records/index.js';

/** The result of a run the loop never finished itself (cancelled while queued, or a crash of the loop). */
export function syntheticResult(runId: string, status: RunStatus, error: RunError): RunResult {
  return {
    runId,
    status,
    output: '',
    steps: [],
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
    stats: emptyStats(),
    durationMs: 0,
    error,
  };
}

/** The `run_end` event matching a result, for the log of a run the loop did not end. */
export function runEndEvent(result: RunResult): AgentEvent {
  return {
    type: 'run_end',
    runId: result.runId,
    ts: Date.now(),
    status: result.status,
    output: result.output,
    usage: result.usage,
    durationMs: result.durationMs,
    error: result.error,
  };
}

/** Ends a run that never started (`aborted` by default): logs a `run_end` and stores the result. */
export async function endUnstarted(
  store: RunStore,
  run: RunRecord,
  message: string,
  status: RunStatus = 'aborted',
): Promise<void> {
  const result = syntheticResult(run.id, status, {
    code: status === 'aborted' ? 'cancelled' : 'unknown_agent',
    message,
  });
  const seq = (await store.lastSeq(run.id)) + 1;
  await store.appendEvent(run.id, seq, runEndEvent(result));
  await store.updateRun(run.id, { status, result, updatedAt: Date.now() });
}
