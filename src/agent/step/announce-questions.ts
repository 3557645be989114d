import type { AgentEvent } from '../../core/index.js';
import type { Approver } from '../../tools/index.js';
import type { RunOptions } from '../run/index.js';
import { event, type RunState } from '../run/index.js';

/** What `announceQuestions` wraps. */
export interface AnnounceQuestionsContext {
  state: RunState;
  emit: (event: AgentEvent) => void;
  approve?: Approver;
  ask?: RunOptions['ask'];
}

/**
 * Wraps the run's approver and `ask` so every question put to a person is in the event stream:
 * `approval_request` before it is asked, `approval_response` once answered. Consumers (the studio,
 * replay, the UI protocols) read the pause and its answer from the events alone. A run nobody
 * listens to keeps its callbacks as they are.
 */
export function announceQuestions(ctx: AnnounceQuestionsContext): Pick<RunOptions, 'approve' | 'ask'> {
  const { state, emit, approve, ask } = ctx;
  if (state.silent) return { approve, ask };
  // The step that runs tools is pushed once its calls end, so its index is the count so far.
  const step = () => state.steps.length;
  return {
    approve:
      approve &&
      (async (request) => {
        const callId = request.callId ?? '';
        const { tool, input, question } = request;
        emit(event(state, 'approval_request', { step: step(), callId, tool, input, question, kind: 'approval' }));
        const approved = (await approve(request)) === true;
        emit(event(state, 'approval_response', { step: step(), callId, approved }));
        return approved;
      }),
    ask:
      ask &&
      (async (question, call) => {
        const { callId, tool } = call;
        emit(
          event(state, 'approval_request', {
            step: step(),
            callId,
            tool,
            input: { question },
            question,
            kind: 'question',
          }),
        );
        const answer = await ask(question, call);
        emit(event(state, 'approval_response', { step: step(), callId, approved: true, answer }));
        return answer;
      }),
  };
}
