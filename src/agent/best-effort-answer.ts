import { errorMessage, type Message, type Step } from '../core/index.js';
import { askModel } from './ask-model.js';
import { type PromptHead, projectMessages } from './build-messages.js';
import { linkAbort } from './link-abort.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';

/** At maxSteps: one last call with no tools, asking for the best answer from what was gathered. */
export async function bestEffortAnswer(
  head: PromptHead,
  state: RunState,
  config: LoopConfig,
  emit: Emit,
  project: (step: Step) => Message[],
): Promise<string> {
  const messages: Message[] = [
    ...projectMessages(head, state.steps, project),
    { role: 'user', content: config.protocol.finalAnswerRequest(config.language) },
  ];
  const abort = linkAbort(config.run.signal, undefined);
  try {
    const response = await askModel(
      config.model,
      { messages, stop: config.protocol.stop?.(config.language), protocol: config.protocol.name, signal: abort.signal },
      state.steps.length,
      state,
      config,
      emit,
    );
    const reply = config.protocol.readReply(response);
    return reply.type === 'final' ? reply.answer : response.text.trim();
  } catch (error) {
    emit(
      event(state, 'warning', {
        code: 'final_answer_failed',
        message: `The last call for a best answer failed: ${errorMessage(error)}`,
      }),
    );
    return '';
  } finally {
    abort.dispose();
  }
}
