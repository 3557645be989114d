import type { ToolCallRecord } from '../core/index.js';
import type { ReadToolCall } from '../protocols/index.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';

/** Runs a step's tool calls, emitting tool_start and tool_end as each one starts and ends. */
export async function runTools(
  calls: ReadToolCall[],
  step: number,
  state: RunState,
  config: LoopConfig,
  signal: AbortSignal,
  emit: Emit,
): Promise<ToolCallRecord[]> {
  const records = await config.tools.run(calls, {
    signal,
    onStart: (call, tool, input) => emit(event(state, 'tool_start', { step, callId: call.id, tool, input })),
    onEnd: (r) =>
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
      ),
  });
  state.stats.toolCalls += records.length;
  state.stats.toolErrors += records.filter((r) => !r.ok).length;
  state.stats.retries += records.reduce((n, r) => n + Math.max(0, (r.attempts ?? 1) - 1), 0);
  return records;
}
