import type { RunStats, ToolCallRecord } from '../core/index.js';
import type { ReadToolCall } from '../protocols/index.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';

/**
 * Runs a step's tool calls, emitting tool_start and tool_end as each one starts and ends, and
 * counting each call in the run's stats as it ends. The records come back directly when no call
 * had to wait.
 */
export function runTools(
  calls: ReadToolCall[],
  step: number,
  state: RunState,
  config: LoopConfig,
  signal: AbortSignal,
  emit: Emit,
): ToolCallRecord[] | Promise<ToolCallRecord[]> {
  const { silent, stats } = state;
  return config.tools.run(calls, {
    signal,
    // Nobody listens: no start callback to build or call.
    onStart: silent
      ? undefined
      : (call, tool, input) => emit(event(state, 'tool_start', { step, callId: call.id, tool, input })),
    onEnd: (r) => {
      count(r, stats);
      if (silent) return;
      emit(
        event(state, 'tool_end', {
          step,
          callId: r.id,
          tool: r.tool ?? r.name,
          ms: r.durationMs,
          ok: r.ok,
          output: r.output,
          error: r.error,
        }),
      );
    },
  });
}

/** Adds one call, and its failure and retries, to the run's stats. */
function count(record: ToolCallRecord, stats: RunStats): void {
  stats.toolCalls += 1;
  if (!record.ok) stats.toolErrors += 1;
  if (record.attempts !== undefined && record.attempts > 1) stats.retries += record.attempts - 1;
}
