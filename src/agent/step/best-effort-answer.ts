import { errorMessage, type Message } from '../../core/index.js';
import type { PromptHead, RunContext } from '../run/index.js';
import { event, linkAbort } from '../run/index.js';
import { askModel } from './ask-model.js';

/** At maxSteps: one last call with no tools, asking for the best answer from what was gathered. */
export async function bestEffortAnswer(ctx: RunContext, head: PromptHead): Promise<string> {
  const { state, config, emit } = ctx;
  const messages: Message[] = [
    ...ctx.prompt(head, state.steps),
    { role: 'user', content: config.protocol.finalAnswerRequest(config.language) },
  ];
  // The caller's signal only: the run's own may have fired for its time budget, and this call is what is left to do.
  const abort = linkAbort(config.run.signal, undefined);
  try {
    const request = {
      messages,
      stop: config.protocol.stop?.(config.language),
      protocol: config.protocol.name,
      signal: abort.signal,
    };
    const response = await askModel(
      { state, emit, signal: abort.signal },
      { model: config.model, request, step: state.steps.length, streaming: config.options.streaming ?? true },
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
