import { z } from 'zod';
import { redactedIfSecret, type Step, type ToolCallRecord } from '../core/index.js';
import { clearedResult, defineTool } from '../tools/index.js';
import type { RunBuiltin } from './run-builtins.js';
import type { RunState } from './run-state.js';

/** The name of the built-in tool that brings back a cleared or cut result. */
export const RECALL_RESULT = 'recall_result';

const RECALL_INPUT = z.object({
  callId: z.string().describe('The id of the earlier call, as the placeholder names it'),
});

/**
 * `recall_result`: returns the whole result of an earlier call of the run, by its call id, redacted as
 * the run stores redact it. Results live in the run's steps (a cut one in `ToolCallRecord.full`), so
 * this works after a resume and in a fork. Offered once a result was cleared from the context or cut
 * (then for the rest of the run).
 */
export function recallResultTool(state: RunState): RunBuiltin {
  // Steps already looked at for a cut result: each step is looked at once, not again at every later step.
  let scanned = 0;
  const offered = () => {
    if (state.recallOffered) return true;
    const cleared = (state.context?.cleared ?? 0) > 0 || (state.context?.folded ?? 0) > 0;
    for (; !cleared && scanned < state.steps.length; scanned++) {
      if (state.steps[scanned].toolCalls.some((r) => r.full !== undefined)) break;
    }
    if (cleared || scanned < state.steps.length) state.recallOffered = true;
    return state.recallOffered === true;
  };
  return { name: RECALL_RESULT, make: () => recallTool(state), offered };
}

function recallTool(state: RunState) {
  return defineTool({
    name: RECALL_RESULT,
    description:
      'Returns the whole result of an earlier tool call whose result was cleared from the context or cut short. Give the call id the placeholder or the cut marker names.',
    input: RECALL_INPUT,
    // The whole result: cutting it again would only ask for another recall.
    outputLimit: Number.POSITIVE_INFINITY,
    idempotent: true,
    run: ({ callId }) => {
      const record = findRecord(state.steps, callId);
      if (!record)
        throw new Error(`No earlier call has the id ${JSON.stringify(callId)}. Use an id a placeholder names.`);
      return redactedIfSecret(record.full ?? record.output);
    },
  });
}

function findRecord(steps: readonly Step[], callId: string): ToolCallRecord | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const record = steps[i].toolCalls.find((r) => r.id === callId);
    if (record) return record;
  }
  return undefined;
}

/** The step as the context shows it once its results are cleared: each output a placeholder naming its call. */
export function clearedStep(step: Step): Step {
  const toolCalls = step.toolCalls.map((r) => ({
    ...r,
    output: clearedResult(r.id),
    full: undefined,
    media: undefined,
  }));
  return { ...step, toolCalls, observation: undefined };
}
