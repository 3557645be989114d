import type { RunStats, ToolCallRecord } from '../core/index.js';
import type { ReadToolCall } from '../protocols/index.js';
import type { Checkpointer } from './checkpointer.js';
import { guardToolCalls } from './guardrails/index.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';

/** What running a step's tools needs from the run. */
export interface ToolStepContext {
  state: RunState;
  config: LoopConfig;
  signal: AbortSignal;
  emit: Emit;
  /** Set for durable runs: each call's end is written as it happens. */
  checkpoints?: Checkpointer;
}

/**
 * Checks a step's calls against the tool-call guardrails, then runs the allowed ones: one record per
 * call, in call order. A blocked call is written to the checkpoint as ended, so a resumed run never
 * runs it. Awaits only what waits: without guardrails, a step of synchronous tools costs no microtask.
 */
export function runStepCalls(
  calls: ReadToolCall[],
  step: number,
  ctx: ToolStepContext,
): ToolCallRecord[] | Promise<ToolCallRecord[]> {
  const guards = ctx.config.options.guardrails?.toolCall;
  // No guardrails: straight to the tools, with no closure per step.
  if (!guards?.length) return runTools(calls, step, ctx);
  const checked = guardToolCalls(guards, calls, ctx.state, ctx.signal, ctx.emit);
  const run = ({ allowed, blocked }: { allowed: ReadToolCall[]; blocked: ToolCallRecord[] }) => {
    for (const record of blocked) ctx.checkpoints?.callEnded(ctx.state, record);
    const running = allowed.length ? runTools(allowed, step, ctx) : [];
    // Records come back in call order; only blocked calls need putting back in place.
    const inOrder = (ran: ToolCallRecord[]) =>
      blocked.length ? calls.map((c) => ran.find((r) => r.id === c.id) ?? blocked.find((b) => b.id === c.id)!) : ran;
    return running instanceof Promise ? running.then(inOrder) : inOrder(running);
  };
  return checked instanceof Promise ? checked.then(run) : run(checked);
}

/**
 * Runs a step's tool calls, emitting tool_start and tool_end as each one starts and ends, counting
 * each call in the run's stats and writing it to the run's checkpoint as it ends. The records come
 * back directly when no call had to wait.
 */
export function runTools(
  calls: ReadToolCall[],
  step: number,
  ctx: ToolStepContext,
): ToolCallRecord[] | Promise<ToolCallRecord[]> {
  const { state, emit, checkpoints } = ctx;
  const { silent, stats } = state;
  return ctx.config.tools.run(calls, {
    signal: ctx.signal,
    onWait: checkpoints && ((callId) => checkpoints.callWaits(state, callId)),
    beforeStart: checkpoints && ((callId) => checkpoints.callStarts(state, callId)),
    // Nobody listens: no start callback to build or call.
    onStart: silent
      ? undefined
      : (call, tool, input) => emit(event(state, 'tool_start', { step, callId: call.id, tool, input })),
    onEnd: (r) => {
      count(r, stats);
      if (!silent) {
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
      }
      // After tool_end, so a store that batches writes commits the event with the record. A call that
      // failed once the run was aborted (a shutdown) was cut short, not finished: a resume treats it as interrupted.
      if (checkpoints && !(ctx.signal.aborted && !r.ok)) checkpoints.callEnded(state, r);
    },
  });
}

/** Adds one call, and its failure and retries, to the run's stats. */
function count(record: ToolCallRecord, stats: RunStats): void {
  stats.toolCalls += 1;
  if (!record.ok) stats.toolErrors += 1;
  if (record.attempts !== undefined && record.attempts > 1) stats.retries += record.attempts - 1;
}
