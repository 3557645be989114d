import type { Message, ParsedStep, Step } from '../../core/index.js';
import type { Protocol, ProtocolName, ReadContext } from '../protocol.js';
import { cutAfterDecision, keywordLabel } from './keywords.js';
import { type PromptTemplates, renderCorrection, renderSystemPrompt } from './prompt-template.js';
import { readNativeCalls, readParsedStep } from './read-reply.js';

/** The parts that make a text protocol (json, react): its name, prompt text and parser. */
export interface TextProtocolParts {
  name: Exclude<ProtocolName, 'native'>;
  templates: PromptTemplates;
  parse: (text: string, context?: ReadContext) => ParsedStep;
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
    readReply(response, context) {
      if (response.toolCalls && response.toolCalls.length > 0) return readNativeCalls(response);
      return readParsedStep(parse(response.text ?? '', context), response);
    },
    stepMessages: (step, language) =>
      textStepMessages(step, {
        observationPrefix: templates[language].observationPrefix,
        correction: (reason) => correction(reason, language),
      }),
    correction,
    finalAnswerRequest: (language) => templates[language].finalAnswerRequest,
    // Both keywords: a model prompted in one language may still answer in the other.
    stop: () => [`\n${keywordLabel('observation', 'en').trimEnd()}`, `\n${keywordLabel('observation', 'zh')}`],
  };
}

/** What a text protocol needs to record a step. */
export interface TextStepOptions {
  observationPrefix: string;
  correction: (reason: string) => string;
}

/**
 * The messages that record a json/react step: the assistant's text (cut before any observation it
 * invented), then one user message with the real `Observation:` (or the correction after an
 * unreadable reply). Notes a hook or memory added come last.
 */
function textStepMessages(step: Step, options: TextStepOptions): Message[] {
  const assistant: Message = { role: 'assistant', content: cutAfterDecision(step.raw) || step.answer || '' };
  const notes = step.notes ?? [];
  if (step.kind === 'final') return [assistant, ...notes];
  if (step.kind === 'invalid') {
    const correction = step.observation ?? options.correction(step.invalidReason ?? 'The reply could not be read.');
    return [assistant, { role: 'user', content: correction }, ...notes];
  }
  // The loop sets `observation`; without it, the outputs (which carry any warnings) are joined.
  const body = step.observation ?? step.toolCalls.map((c) => c.output).join('\n\n');
  const content = body.startsWith(options.observationPrefix.trim()) ? body : options.observationPrefix + body;
  // Images a tool returned go with the observation, for a model that can look at them.
  const media = step.toolCalls.flatMap((c) => c.media ?? []);
  if (media.length === 0) return [assistant, { role: 'user', content }, ...notes];
  return [assistant, { role: 'user', content: [{ type: 'text', text: content }, ...media] }, ...notes];
}
