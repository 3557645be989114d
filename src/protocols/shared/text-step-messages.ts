import type { Message, Step } from '../../core/index.js';
import { cutAfterDecision } from './keywords.js';

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
export function textStepMessages(step: Step, options: TextStepOptions): Message[] {
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
