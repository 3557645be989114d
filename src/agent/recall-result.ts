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
 * this works after a resume and in a fork. Offered while a result was cleared from the context or cut.
 */
export function recallResultTool(state: RunState): RunBuiltin {
  return { name: RECALL_RESULT, make: () => recallTool(state), offered: () => recallNeeded(state) };
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

/** Something was cleared from the context (its state says so) or a result was cut. Once true, it stays true. */
function recallNeeded(state: RunState): boolean {
  if (state.recallOffered) return true;
  const cleared = (state.context?.cleared ?? 0) > 0 || (state.context?.folded ?? 0) > 0;
  if (cleared || state.steps.some((s) => s.toolCalls.some((r) => r.full !== undefined))) state.recallOffered = true;
  return state.recallOffered === true;
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
