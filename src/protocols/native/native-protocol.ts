import type { Protocol } from '../protocol.js';
import { fill, renderCorrection, renderSystemPrompt } from '../shared/prompt-template.js';
import { nativeStepMessages } from './native-step-messages.js';
import { nativePrompt } from './prompt.js';
import { readNativeReply } from './read-native-reply.js';

/**
 * The native protocol: tools go in the request's `tools` field and the provider returns structured
 * tool calls. Replies without tool calls whose text is still an action (small local models) are read
 * as that action; other text is the final answer. Results go back as one `tool` message per call.
 */
export const nativeProtocol: Protocol = {
  name: 'native',
  systemPrompt: (ctx) => renderSystemPrompt(nativePrompt[ctx.language], ctx),
  requestTools: (ctx) => (ctx.tools.length > 0 ? ctx.tools : undefined),
  readReply: readNativeReply,
  stepMessages: (step, language) =>
    nativeStepMessages(step, (reason) => fill(nativePrompt[language].correction, { reason })),
  correction: (reason, language, detail) =>
    renderCorrection(nativePrompt[language].correction, reason, language, detail),
  finalAnswerRequest: (language) => nativePrompt[language].finalAnswerRequest,
};
