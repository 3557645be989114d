import type { Context } from 'hono';
import { apiError } from '../http/index.js';
import type { RunRecord, RunService } from '../records/index.js';
import { answerCalls, type CallAnswer, continueAfterQuestion, type RunContinuation } from '../runs/index.js';

/** A follow-up request read: what it goes on with, or the response that refuses it. */
export type FollowUp<T> = ({ ok: true } & T) | { ok: false; response: Response };

/** The run of the path's agent a follow-up request names (`to` says what it would do with it); 404 when there is none. */
export async function agentRunOf(
  c: Context,
  runs: RunService,
  request: { agent: string; runId: string; to: string },
): Promise<FollowUp<{ run: RunRecord }>> {
  const { agent, runId } = request;
  const run = await runs.get(runId);
  if (!run || run.agent !== agent)
    return { ok: false, response: apiError(c, 'not_found', `No run "${runId}" of agent "${agent}" to ${request.to}.`) };
  return { ok: true, run };
}

/**
 * The step a UI protocol takes when a request answers what a run waits on (approvals, `ask_user`):
 * answer those calls, and pick the run's stream up where the last response stopped. 404 for a run that
 * went, 409 for calls it never asked about or does not wait on (`asked` names them as the protocol does).
 */
export async function continueAnswered(
  c: Context,
  runs: RunService,
  request: { runId: string; answers: CallAnswer[]; asked: string },
): Promise<FollowUp<{ from: RunContinuation }>> {
  const { runId, answers, asked } = request;
  const refuse = (response: Response) => ({ ok: false as const, response });
  const from = await continueAfterQuestion(
    runs,
    runId,
    answers.map((a) => a.callId),
  );
  if (!from) return refuse(apiError(c, 'conflict', `Run "${runId}" never asked about these tool calls.`));
  const outcome = await answerCalls(runs, runId, answers);
  if (outcome === 'not_found') return refuse(apiError(c, 'not_found', `No run with id "${runId}".`));
  if (outcome === 'no_question')
    return refuse(apiError(c, 'conflict', `Run "${runId}" is not waiting on these ${asked} (answered already?).`));
  return { ok: true, from };
}
