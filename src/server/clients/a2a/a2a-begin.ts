import type { Message } from '../../../core/index.js';
import { createAnswerPartReader } from '../../../protocols/index.js';
import { A2A_ERRORS, A2A_FINAL_STATES, type A2aMessage, type A2aSendParams } from '../../../tools/index.js';
import type { RunRecord } from '../../records/index.js';
import { answerCalls, continueAfterQuestion, keepConversation } from '../../runs/index.js';
import { type A2aContext, type Begun, type RpcError, rpcError } from './a2a-context.js';
import { answerFrom, taskState } from './a2a-task.js';

type BeginOutcome = ({ ok: true } & Begun) | { ok: false; error: RpcError };
const failed = (code: number, message: string): BeginOutcome => ({ ok: false, error: rpcError(code, message) });

/** Starts a task, or answers the question of the task it continues; a JSON-RPC error when it cannot. */
export async function beginTask(ctx: A2aContext, agent: string, params: A2aSendParams): Promise<BeginOutcome> {
  const { message } = params;
  if (!message.taskId) return startTask(ctx, agent, message);
  const run = await ctx.runs.get(message.taskId);
  if (!run || run.agent !== agent) return failed(A2A_ERRORS.taskNotFound, `Task "${message.taskId}" not found.`);
  return continueTask(ctx, run, message);
}

/** A message on a waiting task answers its open question, and the task's stream picks up where it stopped. */
async function continueTask(ctx: A2aContext, run: RunRecord, message: A2aMessage): Promise<BeginOutcome> {
  const question = run.questions?.find((q) => !q.answer);
  if (run.status !== 'waiting' || !question?.callId) {
    const state = taskState(run);
    const why = A2A_FINAL_STATES.includes(state) ? `is ${state}` : 'is not waiting for input';
    return failed(
      A2A_ERRORS.invalidParams,
      `Task "${run.id}" ${why}; send a new message without taskId to start another.`,
    );
  }
  const from = await continueAfterQuestion(ctx.runs, run.id, [question.callId]);
  const outcome = await answerCalls(ctx.runs, run.id, [
    { callId: question.callId, answer: answerFrom(message, question) },
  ]);
  if (outcome !== 'answered' || !from)
    return failed(A2A_ERRORS.invalidParams, `Task "${run.id}" is no longer waiting on that question.`);
  return { ok: true, runId: run.id, after: from.after, reader: from.reader, continued: true };
}

/** A message with no task starts a run on its text and data parts, in its context's conversation. */
async function startTask(ctx: A2aContext, agent: string, message: A2aMessage): Promise<BeginOutcome> {
  const { runs, sessions } = ctx;
  const file = message.parts.findIndex((p) => p.kind === 'file');
  if (file >= 0)
    return failed(
      A2A_ERRORS.invalidParams,
      `params.message.parts[${file}] is a file part; an agent run takes text and data parts only.`,
    );
  const input = message.parts
    .map((p) => (p.kind === 'text' ? p.text : p.kind === 'data' ? JSON.stringify(p.data) : ''))
    .join('\n');
  if (input.trim() === '') return failed(A2A_ERRORS.invalidParams, 'params.message.parts must hold some text.');
  const contextId = message.contextId;
  const history: Message[] = contextId && sessions ? await sessions.load(contextId) : [];
  const started = await runs.start({ agent, input, history, source: 'api', thread: contextId });
  if (!started.ok) {
    const why =
      started.reason === 'unknown_agent'
        ? `No agent named "${agent}".`
        : started.reason === 'thread_busy'
          ? started.message
          : `Too many runs waiting for agent "${agent}"; retry later.`;
    return failed(A2A_ERRORS.internal, why);
  }
  const runId = started.run.id;
  ctx.book.remember(runId, contextId ?? runId, message);
  if (contextId && sessions)
    keepConversation({ runs, sessions, sessionId: contextId, history, input, runId, onError: ctx.onError });
  return { ok: true, runId, after: 0, reader: createAnswerPartReader({ runId }), continued: false };
}
