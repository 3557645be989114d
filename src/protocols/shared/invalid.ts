import type { ParsedStep } from '../../core/index.js';

/** An unreadable reply, with the reason that tells the model what to fix. */
export function invalid(raw: string, reason: string): Extract<ParsedStep, { type: 'invalid' }> {
  return { type: 'invalid', reason, raw };
}

/** Adds a thought and the repaired flag to a step, leaving out empty values. */
export function withExtras(step: ParsedStep, thought: string | undefined, repaired: boolean): ParsedStep {
  if (step.type === 'invalid') return step;
  const merged = joinThoughts(thought, step.thought);
  const out: ParsedStep = { ...step };
  if (merged) out.thought = merged;
  else delete out.thought;
  if (repaired || step.repaired) out.repaired = true;
  return out;
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
