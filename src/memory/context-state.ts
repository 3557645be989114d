import type { Message } from '../core/index.js';
import { clearedResult } from '../tools/index.js';

/**
 * What a run's context window has let go of, as counts of leading groups, so it is plain JSON: the
 * run keeps it in its state and checkpoints, and a resumed run projects the same prompt.
 */
export interface ContextState {
  /** Leading history groups dropped. */
  historyDropped: number;
  /** Leading step groups whose tool results are cleared (placeholders instead). */
  cleared: number;
  /** Leading step groups folded into `summary` (not sent). */
  folded: number;
  /** The summary of the folded steps, when one was written. */
  summary?: string;
}

/** The state of a window that has let go of nothing. */
export const NOTHING_LET_GO: ContextState = Object.freeze({ historyDropped: 0, cleared: 0, folded: 0 });

/** A step group with its tool results cleared, and the ids of the calls whose results were. */
export interface ClearedGroup {
  messages: Message[];
  callIds: string[];
}

/** Clears step group `index` (the loop projects it from the step, so text protocols clear too). */
export type ClearGroup = (index: number) => ClearedGroup;

/** The default clearing: every `tool` message's content becomes a placeholder naming its call. */
export function clearToolMessages(group: readonly Message[]): ClearedGroup {
  const callIds: string[] = [];
  const messages = group.map((m): Message => {
    if (m.role !== 'tool') return m;
    callIds.push(m.toolCallId);
    return { ...m, content: clearedResult(m.toolCallId) };
  });
  return { messages, callIds };
}
