import type { ReadToolCall } from '../../core/index.js';
import {
  type NestedCallOutcome,
  type NestedCalls,
  type NestedToolSource,
  ToolRegistry,
  toJsonValue,
} from '../../tools/index.js';
import type { RunContext } from '../run/index.js';
import { countCall, event, toolEndEvent } from '../run/index.js';

/**
 * The `ctx.nested` of one call in a step: the calls a tool makes from inside it (code mode) run
 * through the run's executor, emit `tool_start`/`tool_end` with `parentCallId`, count in the run's
 * stats, and the tool's journal goes into the step's checkpoint, so a resume can replay it. Under a
 * durable engine's journal each nested call is a step of it, and the program's seed and clock are read from it.
 */
export function createNestedCalls(ctx: RunContext, step: number, parentCallId: string): NestedCalls {
  const { state, emit, checkpoints, signal, journal } = ctx;
  const { tools, run } = ctx.config;
  const pending = run.resume?.pending;
  const recorded = pending && pending.index === step ? pending.nested?.[parentCallId] : undefined;
  const journalKey = journal && String(step);
  return {
    registry: tools.registry,
    recorded,
    // Under a durable engine the program's seed and clock are the journal's; each call it makes is a step.
    draw: journal && (async () => ({ seed: await journal.seed(), clock: await journal.now() })),
    end: (answer) => {
      ctx.ending ??= { answer };
    },
    fail: (error) => {
      ctx.ending = { error };
    },
    save: (journal) => checkpoints?.nestedChanged(state, parentCallId, journal) ?? Promise.resolve(),
    run(call: ReadToolCall, registry: NestedToolSource | undefined, hooks = {}): Promise<NestedCallOutcome> {
      let value: unknown;
      // A tool's own list is a ToolRegistry (code mode builds one); anything else resolves in the run's.
      const executor = tools.executorFor(registry instanceof ToolRegistry ? registry : tools.registry);
      return executor
        .execute([call], {
          signal: hooks.signal ? AbortSignal.any([signal, hooks.signal]) : signal,
          onWait: hooks.onWait && (() => hooks.onWait?.()),
          beforeStart: hooks.beforeStart && (() => hooks.beforeStart?.()),
          journalKey,
          onValue: (_index, output) => {
            value = output;
          },
          onStart: (r) =>
            emit(
              event(state, 'tool_start', { step, callId: r.id, tool: r.tool ?? r.name, input: r.input, parentCallId }),
            ),
          onEnd: (r) => {
            countCall(r, state.stats);
            emit(toolEndEvent(state, step, r, parentCallId));
          },
        })
        .then(([record]) =>
          record.ok
            ? { ok: true, value: toJsonValue(value), output: record.output }
            : { ok: false, error: record.output },
        );
    },
  };
}
