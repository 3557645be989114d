import type { A2aArtifact, A2aMessage, A2aPart, A2aTask, A2aTaskState } from '../../../tools/index.js';
import { a2aText } from '../../../tools/index.js';
import type { PendingQuestion, RunRecord } from '../../records/index.js';
import type { A2aTaskBook } from './a2a-context.js';

/** The A2A task state a run is in. */
export function taskState(run: RunRecord): A2aTaskState {
  switch (run.status) {
    case 'queued':
      return 'submitted';
    case 'running':
      return 'working';
    case 'waiting':
      return 'input-required';
    case 'done':
      return 'completed';
    case 'aborted':
      return 'canceled';
    case 'failed':
      return 'failed';
    default:
      // Stopped by a guard (max steps, a loop, a budget): an answer is still an answer.
      return run.result?.output ? 'completed' : 'failed';
  }
}

const YES = /^\s*(y|yes|ok|okay|approve|approved|allow|go|go ahead|sure|true|oui|是|好)\b/i;

/** What a person asks: the words of the question an input-required task's status carries. */
export function questionText(question: PendingQuestion): string {
  if (question.kind === 'question') return question.question ?? 'The agent has a question.';
  const about = question.question ? `${question.question} ` : '';
  return `${about}Approve the call to ${question.tool} with ${JSON.stringify(question.input)}? Answer yes or no.`;
}

/** Reads a follow-up message as the answer to the run's question. */
export function answerFrom(message: A2aMessage, question: PendingQuestion): { approved: boolean; text?: string } {
  const data = message.parts.find((p) => p.kind === 'data')?.data;
  const text = a2aText(message.parts);
  if (question.kind === 'question')
    return { approved: true, text: typeof data?.answer === 'string' ? data.answer : text };
  if (typeof data?.approved === 'boolean')
    return { approved: data.approved, text: typeof data.reason === 'string' ? data.reason : undefined };
  return YES.test(text) ? { approved: true } : { approved: false, text: text || undefined };
}

/** A message from the agent on a task (a status message: the question, the failure). */
export function agentMessage(
  taskId: string,
  contextId: string,
  parts: A2aPart[],
  metadata?: Record<string, unknown>,
): A2aMessage & { kind: 'message' } {
  return {
    kind: 'message',
    messageId: `${taskId}-${Date.now()}`,
    role: 'agent',
    parts,
    taskId,
    contextId,
    ...(metadata ? { metadata } : {}),
  };
}

/** The task's answer: its text, and the structured answer as a data part when there is one. */
export function answerArtifact(output: string, object: unknown): A2aArtifact {
  const parts: A2aPart[] = [{ kind: 'text', text: output }];
  if (object !== undefined && object !== null && typeof object === 'object' && !Array.isArray(object)) {
    parts.push({ kind: 'data', data: object as Record<string, unknown> });
  }
  return { artifactId: 'answer', name: 'answer', parts };
}

/** The run as an A2A task: its state, the question or failure as its status message, its answer as an artifact. */
export function toTask(book: A2aTaskBook, run: RunRecord, historyLength?: number): A2aTask {
  const contextId = book.contextOf(run.id);
  const state = taskState(run);
  const question = run.questions?.find((q) => !q.answer);
  const status: A2aTask['status'] = { state, timestamp: new Date(run.updatedAt).toISOString() };
  if (state === 'input-required' && question) {
    status.message = agentMessage(run.id, contextId, [{ kind: 'text', text: questionText(question) }], {
      thinkflow: { kind: question.kind, callId: question.callId, tool: question.tool, input: question.input },
    });
  } else if (state === 'failed' && run.result?.error) {
    status.message = agentMessage(run.id, contextId, [{ kind: 'text', text: run.result.error.message }]);
  }
  const input = book.inputOf(run.id) ?? {
    kind: 'message',
    messageId: `${run.id}-input`,
    role: 'user',
    parts: [{ kind: 'text', text: run.input }],
  };
  const history = [{ ...input, taskId: run.id, contextId }];
  const artifacts =
    run.result && state === 'completed' ? [answerArtifact(run.result.output, run.result.object)] : undefined;
  return {
    kind: 'task',
    id: run.id,
    contextId,
    status,
    history: historyLength === undefined ? history : history.slice(history.length - historyLength),
    ...(artifacts ? { artifacts } : {}),
    metadata: { thinkflow: { agent: run.agent, status: run.status } },
  };
}
