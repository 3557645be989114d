import type { PendingQuestion } from '../../records/index.js';
import type { AnswerEnd, AnswerUsage } from '../../runs/index.js';

/**
 * What the OpenAI Chat and Responses routes share on the way out: the ids of the tool calls a run
 * waits on, usage as OpenAI clients read it, and why an ended run has no answer.
 */

const CALL_ID = /^call_([0-9a-f-]{36})_(q\d+)$/;

/** The id a caller sees for a tool call the run waits on: it names the run, so the results find it again. */
export function clientCallId(runId: string, question: PendingQuestion): string {
  return `call_${runId}_${question.id}`;
}

/** The run and question a tool call id a caller sends back names; undefined when this server did not make it. */
export function readClientCallId(id: string): { runId: string; questionId: string } | undefined {
  const match = CALL_ID.exec(id);
  return match ? { runId: match[1], questionId: match[2] } : undefined;
}

/** The answer's usage as OpenAI chat usage, with `estimated: true` when a model did not report it. */
export function chatUsage(usage: AnswerUsage) {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    ...(usage.estimated ? { estimated: true } : {}),
  };
}

/** The header that tells a client the usage is an estimate (no model reported it). */
export const USAGE_ESTIMATED_HEADER = 'X-Thinkflow-Usage-Estimated';

/** Why a run that ended has nothing to give the caller (for `runFailed`), or undefined when it answered. */
export function endFailure(end: AnswerEnd): string | undefined {
  if (end.type !== 'ended') return undefined;
  const result = end.run?.result;
  if (result && (result.status === 'done' || result.output)) return undefined;
  return result?.error?.message ?? `the run ended ${end.run?.status ?? 'unknown'}`;
}
