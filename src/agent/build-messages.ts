import type { Message, Step } from '../core/index.js';
import type { Language, Protocol } from '../protocols/index.js';

/**
 * Projects the run's steps into messages, step by step. A finished step never changes, so its
 * messages are computed once and reused on every later step.
 */
export function createStepProjector(protocol: Protocol, language: Language) {
  const cache = new WeakMap<Step, { notes: Step['notes']; messages: Message[] }>();
  return (step: Step): Message[] => {
    let entry = cache.get(step);
    // A reflection may add notes to a step after it was first projected.
    if (!entry || entry.notes !== step.notes) {
      entry = { notes: step.notes, messages: protocol.stepMessages(step, language) };
      cache.set(step, entry);
    }
    return entry.messages;
  };
}

/**
 * A fork's edited conversation (`agent.fork` with `messages`): these messages stand for the system
 * prompt, the earlier turns, the question and the run's first `steps` steps.
 */
export interface EditedPrompt {
  messages: Message[];
  steps: number;
}

/** The parts of every prompt that do not come from steps. */
export interface PromptHead {
  system: Message;
  history: Message[];
  question: Message;
  /** Set for a fork with edited messages: they replace all of the above and the steps they stand for. */
  edited?: EditedPrompt;
}

/** The full prompt: system, earlier turns, the question, then each step's messages. */
export function projectMessages(
  head: PromptHead,
  steps: readonly Step[],
  project: (step: Step) => Message[],
): Message[] {
  const { edited } = head;
  if (edited) return [...edited.messages, ...steps.slice(edited.steps).flatMap(project)];
  const messages: Message[] = [head.system];
  for (const m of head.history) messages.push(m);
  messages.push(head.question);
  for (const step of steps) for (const m of project(step)) messages.push(m);
  return messages;
}
