import { z } from 'zod';
import { redactedIfSecret, type Step, type ToolCallRecord } from '../../core/index.js';
import { charsWithinTokens, clearedResult, defineTool, recallHint } from '../../tools/index.js';
import type { RunState } from '../run/index.js';
import type { RunBuiltin } from './run-builtins.js';

/** The name of the built-in tool that brings back a cleared or cut result. */
export const RECALL_RESULT = 'recall_result';

/**
 * How `recall_result` pages a result: at most `pageChars` characters per call (the run's result limit),
 * or, when the limit comes from the token budget, the characters `pageTokens` tokens hold in the result's script.
 */
export interface RecallOptions {
  pageChars: number;
  pageTokens?: number;
}

const RECALL_INPUT = z.object({
  callId: z.string().describe('The id of the earlier call, as the placeholder names it'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('The first character to return, as a cut marker names it. Default 0: from the start'),
});

/**
 * `recall_result`: returns the result of an earlier call of the run, by its call id, redacted as the
 * run stores redact it, from `offset` on (a cut marker names the offset of the part it cut) and at
 * most one page long, so a recall fits the window as a result does; a page that stops short names
 * the call for the next one. Results live in the run's steps (a cut one in `ToolCallRecord.full`),
 * so this works after a resume and in a fork. Offered once a result was cleared from the context or
 * cut (then for the rest of the run).
 */
export function recallResultTool(state: RunState, options: RecallOptions): RunBuiltin {
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
  return { name: RECALL_RESULT, make: () => recallTool(state, options), offered };
}

function recallTool(state: RunState, options: RecallOptions) {
  return defineTool({
    name: RECALL_RESULT,
    description:
      'Returns the result of an earlier tool call that was cleared from the context or cut short. Give the call id (and the offset) that the placeholder or the cut marker names.',
    input: RECALL_INPUT,
    // The tool pages itself: cutting a page again would only ask for another recall.
    outputLimit: Number.POSITIVE_INFINITY,
    idempotent: true,
    run: ({ callId, offset = 0 }) => {
      const record = findRecord(state.steps, callId);
      if (!record)
        throw new Error(`No earlier call has the id ${JSON.stringify(callId)}. Use an id a placeholder names.`);
      const text = redactedIfSecret(record.full ?? record.output);
      const { pageTokens } = options;
      const rest = offset > 0 ? text.slice(offset) : text;
      const pageChars = pageTokens === undefined ? options.pageChars : charsWithinTokens(rest, pageTokens);
      return resultPage(text, callId, offset, pageChars);
    },
  });
}

/** Characters `offset` to `offset + pageChars` of a result, and the call that returns the rest when some is left. */
function resultPage(text: string, callId: string, offset: number, pageChars: number): string {
  if (offset > 0 && offset >= text.length)
    throw new Error(`The result of ${callId} has ${text.length} characters; offset ${offset} is past its end.`);
  const end = offset + Math.max(1, pageChars);
  if (offset === 0 && end >= text.length) return text;
  const page = text.slice(offset, end);
  const range = `[Characters ${offset.toLocaleString('en-US')} to ${Math.min(end, text.length).toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')}`;
  if (end >= text.length) return `${range}.]\n${page}`;
  return `${range}; ${recallHint(callId, end)} returns the next part.]\n${page}`;
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
