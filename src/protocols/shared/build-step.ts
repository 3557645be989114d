/**
 * How the readers build a parsed step: an invalid one with what to fix, the thought, habits and
 * repaired flag added without empty values, the plain-reply rule, and `readSafely`, which makes every
 * reader total (never throws).
 */
import type { ParsedStep, ReplyHabit } from '../../core/index.js';

/**
 * An unreadable reply, with the reason that tells the model what to fix and, when known, its own
 * words (`quote`) and the corrected line (`fix`) for the correction to show.
 */
export function invalid(
  raw: string,
  reason: string,
  detail?: { quote?: string; fix?: string },
): Extract<ParsedStep, { type: 'invalid' }> {
  if (!detail) return { type: 'invalid', reason, raw };
  const step: Extract<ParsedStep, { type: 'invalid' }> = { type: 'invalid', reason, raw };
  if (detail.quote) step.quote = detail.quote;
  if (detail.fix) step.fix = detail.fix;
  return step;
}

/**
 * Reads a reply with `read`, never throwing: text that is not a string, or a bug in a reader, becomes
 * an invalid step rather than a crashed loop.
 */
export function readSafely(text: unknown, read: (text: string) => ParsedStep): ParsedStep {
  if (typeof text !== 'string') return invalid(String(text), 'The reply was not text.');
  try {
    return wellFormed(read(text), text);
  } catch (error) {
    // Defensive only: every path of a reader returns data.
    return invalid(text, `The reply could not be read (${error instanceof Error ? error.message : 'unknown error'}).`);
  }
}

/**
 * The last check on every parse: an action without a tool name is not an action (`**Action:**` with
 * nothing usable after it), whichever path produced it.
 */
function wellFormed(step: ParsedStep, raw: string): ParsedStep {
  if (step.type === 'action' && step.tool.trim() === '') {
    return invalid(raw, 'The Action has no tool name. Write "Action: <tool name>", or "Final Answer: <answer>".');
  }
  return step;
}

/** Adds habits read through to a step (invalid steps carry none), keeping each name once. */
export function withHabits(step: ParsedStep, habits: readonly ReplyHabit[]): ParsedStep {
  if (step.type === 'invalid' || habits.length === 0) return step;
  const merged = step.habits ? [...step.habits] : [];
  for (const habit of habits) if (!merged.includes(habit)) merged.push(habit);
  step.habits = merged;
  return step;
}

/** Adds a thought and the repaired flag to a step, leaving out empty values. */
export function withExtras(step: ParsedStep, thought: string | undefined, repaired: boolean): ParsedStep {
  if (step.type === 'invalid') return step;
  const merged = joinThoughts(thought, step.thought);
  // Built field by field: a spread copy that then gains or loses properties is slow on Node 20.
  const out: ParsedStep =
    step.type === 'action'
      ? { type: 'action', tool: step.tool, input: step.input }
      : { type: 'final', answer: step.answer };
  if (merged) out.thought = merged;
  if (step.type === 'action' && step.calls && out.type === 'action') out.calls = step.calls;
  if (repaired || step.repaired) out.repaired = true;
  if (step.habits) out.habits = step.habits;
  return out;
}

type ActionStep = Extract<ParsedStep, { type: 'action' }>;

/**
 * Several actions read from one reply as one step with several calls, in order: the first action's
 * tool, input and thought, every call in `calls`, the habits of all, repaired if any was.
 */
export function joinActions(actions: readonly ActionStep[]): ActionStep {
  const [first] = actions;
  if (actions.length === 1) return first;
  const step: ActionStep = { ...first, calls: actions.flatMap((a) => a.calls ?? [{ name: a.tool, input: a.input }]) };
  const habits = [...new Set(actions.flatMap((a) => a.habits ?? []))];
  if (habits.length > 0) step.habits = habits;
  if (actions.some((a) => a.repaired)) step.repaired = true;
  return step;
}

/** Joins thought fragments with a blank line, dropping empty ones and exact repeats. */
export function joinThoughts(...parts: (string | undefined)[]): string | undefined {
  const kept: string[] = [];
  for (const part of parts) {
    const t = part?.trim();
    if (t && !kept.includes(t)) kept.push(t);
  }
  return kept.length > 0 ? kept.join('\n\n') : undefined;
}

/**
 * The longest reply, in characters, with no keywords, JSON action or tool-call tag that is taken as
 * the final answer. Short plain replies ("Paris.", a few paragraphs) are answers the model forgot to
 * label; much longer unlabelled text usually means the model lost the format (a plan, a draft, an
 * essay half-way through), so it is sent back with a request to label the answer instead.
 */
export const PLAIN_ANSWER_MAX_CHARS = 2000;

/** Reads a reply that has no recognised structure: short → final answer, long → invalid. */
export function plainReply(text: string, raw: string, thought: string | undefined): ParsedStep {
  const answer = text.trim();
  if (answer.length === 0) {
    return invalid(
      raw,
      thought
        ? 'The reply held only reasoning inside <think>…</think> and no action or answer. After thinking, write the action or the final answer.'
        : 'The reply was empty. Write an action or the final answer.',
    );
  }
  if (answer.length > PLAIN_ANSWER_MAX_CHARS) {
    return invalid(
      raw,
      `The reply has no action and no labelled answer, and at ${answer.length} characters it is too long to be taken as the answer. If this is your final answer, start it with "Final Answer:"; to use a tool, write the action in the required format.`,
    );
  }
  return thought ? { type: 'final', thought, answer } : { type: 'final', answer };
}
