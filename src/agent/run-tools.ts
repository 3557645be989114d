import type { ToolCallRecord } from '../core/index.js';
import type { ReadToolCall } from '../protocols/index.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';
import type { ToolRunHooks } from './tool-runner.js';

/**
 * Runs a step's tool calls, emitting tool_start and tool_end as each one starts and ends. The records
 * come back directly when no call had to wait.
 */
export function runTools(
  calls: ReadToolCall[],
  step: number,
  state: RunState,
  config: LoopConfig,
  signal: AbortSignal,
  emit: Emit,
): ToolCallRecord[] | Promise<ToolCallRecord[]> {
  // Nobody listens: no per-call callbacks to build or call.
  const hooks: ToolRunHooks = state.silent
    ? { signal }
    : {
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
      };
  const records = config.tools.run(calls, hooks);
  return records instanceof Promise ? records.then((r) => counted(r, state)) : counted(records, state);
}

/** Adds a step's calls, failures and retries to the run's stats. */
function counted(records: ToolCallRecord[], state: RunState): ToolCallRecord[] {
  const { stats } = state;
  for (const r of records) {
    stats.toolCalls += 1;
    if (!r.ok) stats.toolErrors += 1;
    if (r.attempts !== undefined && r.attempts > 1) stats.retries += r.attempts - 1;
  }
  return records;
}
