import { errorMessage, type Message } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { RunContext } from '../run/index.js';
import { addUsage, event } from '../run/index.js';

const REQUEST = {
  en: 'Pause and reflect in at most 4 lines: what has been achieved so far, what is still missing, and what to focus on next. Do not call tools.',
  zh: '请暂停并反思（不超过4行）：目前完成了什么，还缺什么，下一步应重点做什么。不要调用工具。',
};

/**
 * Asks the model (or the cheap model) for a short progress summary and next focus, and attaches it
 * to the latest step as a note, so every later prompt carries it.
 */
export async function reflect(ctx: RunContext, model: Model, messages: Message[]): Promise<void> {
  const { state, signal, emit } = ctx;
  const step = state.steps.at(-1);
  if (!step) return;
  try {
    const response = await model.generate({
      messages: [...messages, { role: 'user', content: REQUEST[ctx.config.language] }],
      signal,
    });
    addUsage(state, response.usage, response.cached === true);
    const text = response.text.trim();
    if (!text) return;
    step.notes = [...(step.notes ?? []), { role: 'user', content: `[Reflection] ${text}` }];
    emit(event(state, 'reflection', { step: step.index, text }));
  } catch (error) {
    if (signal.aborted) throw error;
    emit(
      event(state, 'warning', {
        step: step.index,
        code: 'reflection_failed',
        message: `Reflection failed: ${errorMessage(error)}`,
      }),
    );
  }
}
