import type { Message, Step } from '../core/index.js';
import type { ContextWindow } from '../memory/index.js';
import type { PromptHead } from './build-messages.js';
import type { Emit } from './loop-config.js';
import { event, type RunState } from './run-state.js';

/** Fits the prompt into the token budget, emitting `context_summary` when older steps were folded. */
export async function fitContext(
  context: ContextWindow,
  head: PromptHead,
  state: RunState,
  index: number,
  project: (step: Step) => Message[],
  signal: AbortSignal,
  emit: Emit,
): Promise<Message[]> {
  const fit = await context.fit(
    { head: [head.system, head.question], history: head.history, groups: state.steps.map(project) },
    signal,
  );
  if (fit.summary) {
    emit(
      event(state, 'context_summary', {
        step: index,
        summary: fit.summary.text,
        droppedSteps: fit.summary.droppedGroups,
      }),
    );
  }
  if (fit.warning) emit(event(state, 'warning', { step: index, code: 'context', message: fit.warning }));
  return fit.messages;
}
