import type { AgentEvent, ApprovalAnswer, StepJournal } from '../../core/index.js';
import type { RunOptions } from '../run/index.js';
import { event, type RunState } from '../run/index.js';

/** What `journalQuestions` needs: the run, its events, and the engine's journal. */
export interface JournalQuestionsContext {
  state: RunState;
  emit: (event: AgentEvent) => void;
  journal: StepJournal;
}

/**
 * A durable engine's run asks its approvals and `ask_user` questions through the journal: each is a
 * durable wait (`journal.answer`: a Restate awakeable, a DBOS `recv`), announced as `approval_request`
 * with the `answerId` that resolves it, and `approval_response` once answered. An approval resolves
 * with `{ approved, reason? }` (or `true`), a question with the answer's text.
 */
export function journalQuestions(ctx: JournalQuestionsContext): Required<Pick<RunOptions, 'approve' | 'ask'>> {
  const { state, emit, journal } = ctx;
  // The step that runs tools is pushed once its calls end, so its index is the count so far.
  const step = () => state.steps.length;
  return {
    async approve(request) {
      const callId = request.callId ?? '';
      const { tool, input, question } = request;
      const at = step();
      const answer = await journal.answer<ApprovalAnswer | boolean>(`approval:${at}/${callId}`, (answerId) =>
        emit(event(state, 'approval_request', { step: at, callId, tool, input, question, kind: 'approval', answerId })),
      );
      const approved = answer === true || (typeof answer === 'object' && answer !== null && answer.approved === true);
      emit(event(state, 'approval_response', { step: at, callId, approved }));
      return approved;
    },
    async ask(question, call) {
      const { callId, tool } = call;
      const at = step();
      const input = { question };
      const answer = await journal.answer<unknown>(`question:${at}/${callId}`, (answerId) =>
        emit(event(state, 'approval_request', { step: at, callId, tool, input, question, kind: 'question', answerId })),
      );
      const text = typeof answer === 'string' ? answer : answerText(answer);
      emit(event(state, 'approval_response', { step: at, callId, approved: true, answer: text }));
      return text;
    },
  };
}

/** A question's answer sent as an object (`{ answer }`, as the approval routes take it) or any JSON. */
function answerText(answer: unknown): string {
  if (typeof answer === 'object' && answer !== null && 'answer' in answer) return String(answer.answer);
  return answer === undefined || answer === null ? '' : JSON.stringify(answer);
}
