import type { ModelRequest } from '../../core/index.js';
import { createRunContext, type LoopConfig, type PromptHead, type RunState } from '../run/index.js';
import { prepareStep, systemMessage } from './prepare-step.js';
import { questionMessage } from './question-message.js';
import { stepRequest } from './step-request.js';
import { withoutMedia } from './unsupported-media.js';

/** A model request as the model gets it, without the run's abort signal (what `scriptedModel` records). */
export type FirstRequest = Omit<ModelRequest, 'signal'>;

/** The parts of every prompt of a run that do not come from its steps: the system message, earlier turns, the question. */
export function promptHead(state: RunState, config: LoopConfig): PromptHead {
  const { run } = config;
  return {
    system: systemMessage(config),
    history: run.history ?? [],
    question: questionMessage(state.input, run.attachments),
    edited: state.edited,
  };
}

const quiet = () => {};

/**
 * The request the run's first model call sends, prepared by the loop's own steps (`promptHead`,
 * `prepareStep`, `stepRequest`) from the run's own config, with no model call and no event:
 * `agent.prompt()` and `agent.firstRequest()` read it, so they cannot drift from what a run sends.
 */
export async function firstRequest(state: RunState, config: LoopConfig): Promise<FirstRequest> {
  const { ctx, abort } = createRunContext(state, config, quiet);
  try {
    const prepared = await prepareStep(ctx, promptHead(state, config), 0);
    const stop = config.protocol.stop?.(config.language);
    const { signal: _, ...request } = stepRequest(config, prepared, { stop, signal: abort.signal });
    // The loop's model call swaps media a text-only model cannot read for notes (`askModel`).
    if (prepared.model.capabilities.images !== false) return request;
    return { ...request, messages: withoutMedia(request.messages, prepared.model.id).messages };
  } finally {
    abort.dispose();
  }
}
