import type { Message, Step } from '../../core/index.js';
import { messageChars } from '../../llm/index.js';
import type { Language, Protocol } from '../../protocols/index.js';

/**
 * Projects the run's steps into messages, step by step. A finished step never changes, so its
 * messages are computed once and reused on every later step.
 */
export function createStepProjector(protocol: Protocol, language: Language) {
  // Made at first use: a run without a context window projects each step once, through its prompt.
  let cache: WeakMap<Step, { notes: Step['notes']; messages: Message[] }> | undefined;
  return (step: Step): Message[] => {
    cache ??= new WeakMap();
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

/**
 * `projectMessages` for one run, kept between steps: each call appends the messages of the steps added
 * since the last one, so a step's prompt costs its new messages plus one array copy, not a pass over
 * every earlier step. It starts over when the head or an earlier step changed (a reflection's notes,
 * a replaced step). It also keeps the prompt's size as `roughUsage` counts it (`messageChars`), added to
 * as messages are: `chars(messages)` gives it for the array `prompt` last returned, else undefined.
 */
export function createPromptProjector(project: (step: Step) => Message[]) {
  let kept:
    | {
        head: PromptHead;
        parts: unknown[];
        steps: readonly Step[];
        seen: Step[];
        notes: unknown[];
        messages: Message[];
        /** `messageChars` summed over `messages`. */
        chars: number;
        /** The copy the last call returned, and its length then (a caller may push to it). */
        returned: Message[] | undefined;
        length: number;
      }
    | undefined;
  const partsOf = (head: PromptHead) => [head.system, head.history, head.question, head.edited];
  const valid = (head: PromptHead, steps: readonly Step[]): boolean => {
    if (!kept || kept.head !== head || kept.steps !== steps || steps.length < kept.seen.length) return false;
    // Compared field by field, not through a new `partsOf` array each step.
    const { parts } = kept;
    if (head.system !== parts[0] || head.history !== parts[1] || head.question !== parts[2]) return false;
    if (head.edited !== parts[3]) return false;
    for (let i = 0; i < kept.seen.length; i++) {
      if (steps[i] !== kept.seen[i] || steps[i].notes !== kept.notes[i]) return false;
    }
    return true;
  };
  const prompt = (head: PromptHead, steps: readonly Step[]): Message[] => {
    if (head.edited) {
      if (kept) kept.returned = undefined;
      return projectMessages(head, steps, project);
    }
    if (!valid(head, steps)) {
      const messages = [head.system, ...head.history, head.question];
      let chars = 0;
      for (const m of messages) chars += messageChars(m);
      kept = {
        head,
        parts: partsOf(head),
        steps,
        seen: [],
        notes: [],
        messages,
        chars,
        returned: undefined,
        length: 0,
      };
    }
    const k = kept!;
    for (let i = k.seen.length; i < steps.length; i++) {
      const step = steps[i];
      for (const m of project(step)) {
        k.messages.push(m);
        k.chars += messageChars(m);
      }
      k.seen.push(step);
      k.notes.push(step.notes);
    }
    const copy = k.messages.slice();
    k.returned = copy;
    k.length = copy.length;
    return copy;
  };
  const chars = (messages: readonly Message[]): number | undefined =>
    kept && messages === kept.returned && messages.length === kept.length ? kept.chars : undefined;
  return { prompt, chars };
}
