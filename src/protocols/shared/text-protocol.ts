import type { ParsedStep } from '../../core/index.js';
import type { Protocol, ProtocolName } from '../protocol.js';
import { renderCorrection } from './correction-detail.js';
import type { PromptTemplates } from './prompt-template.js';
import { readNativeCalls, readParsedStep } from './read-parsed-step.js';
import { renderSystemPrompt } from './render-system-prompt.js';
import { textStepMessages } from './text-step-messages.js';

/** The parts that make a text protocol (json, react): its name, prompt text and parser. */
export interface TextProtocolParts {
  name: Exclude<ProtocolName, 'native'>;
  templates: PromptTemplates;
  parse: (text: string) => ParsedStep;
}

/**
 * Builds a protocol whose tools and format live in the prompt and whose replies are parsed from
 * text. Tool calls a provider returns anyway (some servers extract them) are honoured as sent.
 */
export function textProtocol(parts: TextProtocolParts): Protocol {
  const { name, templates, parse } = parts;
  const correction: Protocol['correction'] = (reason, language, detail) =>
    renderCorrection(templates[language].correction, reason, language, detail);
  return {
    name,
    systemPrompt: (ctx) => renderSystemPrompt(templates[ctx.language], ctx),
    requestTools: () => undefined,
    readReply(response) {
      if (response.toolCalls && response.toolCalls.length > 0) return readNativeCalls(response);
      return readParsedStep(parse(response.text ?? ''), response);
    },
    stepMessages: (step, language) =>
      textStepMessages(step, {
        observationPrefix: templates[language].observationPrefix,
        correction: (reason) => correction(reason, language),
      }),
    correction,
    finalAnswerRequest: (language) => templates[language].finalAnswerRequest,
    // Both keywords: a model prompted in one language may still answer in the other.
    stop: () => ['\nObservation:', '\n观察：'],
  };
}
