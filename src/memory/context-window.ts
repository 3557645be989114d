import { errorMessage, type Message } from '../core/index.js';
import { truncateObservation } from '../tools/index.js';
import { type ClearGroup, type ContextState, clearToolMessages, NOTHING_LET_GO } from './context-state.js';
import { groupMessages } from './group-messages.js';
import { type CountTokens, createMessageTokens } from './message-tokens.js';

/** Writes a summary of messages the context no longer has room for (the previous summary comes first). */
export type Summarize = (messages: Message[], signal?: AbortSignal) => Promise<string>;

/** When and how far a compaction goes, as fractions of the budget (see docs/memory.md for the numbers). */
export interface CompactionOptions {
  /** The high-water mark: a compaction starts when the prompt passes this share of the budget. Default 0.5. */
  at?: number;
  /** The low-water mark: when clearing leaves the prompt above this share, the oldest steps are summarized down to it. Default 0.25. */
  to?: number;
  /**
   * Steps whose tool results stay whole while older ones are cleared. Default 1: the newest step's, which
   * the model has not answered yet; a result it has answered (and noted in its own turn) is clearable,
   * since every result kept past a clear is sent again uncached.
   */
  keepSteps?: number;
  /** Clear old tool results before summarizing. Default true; `false` only summarizes (the window before clearing existed). */
  clear?: boolean;
}

export interface ContextWindowOptions {
  /** Prompt tokens allowed per model call; `undefined` means no compaction (see `defaultBudgetFor`). */
  budgetTokens?: number;
  /** Characters per tool message before it is cut to head + tail. Default: no cap. */
  observationLimit?: number;
  /** Replaces folded steps by a summary; without it they are just dropped. */
  summarize?: Summarize;
  /** Counts one text's tokens. Default: `countTokens` (exact o200k with gpt-tokenizer installed, else the tokenx estimate). */
  countTokens?: CountTokens;
  /** The high- and low-water marks, and whether results are cleared first. */
  compaction?: CompactionOptions;
  /** Tokens kept for the summary message. Default min(1024, 20% of the budget). */
  summaryTokens?: number;
}

/** The high- and low-water marks and the steps kept whole, as `CompactionOptions` default them. */
export const COMPACTION_DEFAULTS = Object.freeze({ at: 0.5, to: 0.25, keepSteps: 1 });

/** What the loop hands over each step. Only `groups` grows between calls of one run. */
export interface ContextInput {
  /** System prompt and the question: always kept, never capped. */
  head: Message[];
  /** Earlier conversation turns (a session's history), placed after the head's system messages and before the question; trimmed first, oldest first. */
  history?: Message[];
  /** One atomic group per step, oldest first: an assistant tool-call message with its tool results. */
  groups: Message[][];
  /** What the window let go of before this call (the run keeps it, so a resumed run sends the same prompt). Default: the window's own. */
  state?: ContextState;
  /** Group `i` with its tool results cleared. Default: each `tool` message's content replaced by a placeholder. */
  clear?: ClearGroup;
}

/** One compaction this call made: which kind, the prompt's tokens before and after, and the calls whose results were cleared. */
export interface Compaction {
  kind: 'clear' | 'summary';
  tokensBefore: number;
  tokensAfter: number;
  callIds: string[];
}

export interface ContextFit {
  messages: Message[];
  /** What the window has let go of, including this call: hand it back on the next call. */
  state: ContextState;
  /** The compactions this call made, in order (none while the prompt stays under the high-water mark). */
  compactions?: Compaction[];
  /** Set when this call folded steps into the summary: the loop emits `context_summary` from it. */
  summary?: { text: string; droppedGroups: number };
  /** Set when this call dropped anything (with or without a summary). */
  dropped?: { historyMessages: number; groups: number };
  /** Set when the summary could not be written, or the prompt is over budget even after compacting. */
  warning?: string;
}

/** A per-run context manager: `fit()` projects the run's messages into the token budget. */
export interface ContextWindow {
  fit(input: ContextInput, signal?: AbortSignal): Promise<ContextFit>;
}

/**
 * Creates the short-term memory of one run. Below the high-water mark the prompt is the previous one
 * plus the new messages, byte for byte, so a provider's prompt cache holds all of it. Past the mark,
 * one compaction: history goes first, then tool results older than the last `keepSteps` steps are
 * replaced by a one-line placeholder naming `recall_result` (the assistant turns, the model's own
 * notes, stay), and only when that leaves the prompt above the low-water mark are the oldest steps
 * folded into one summary, updated incrementally. A call is never separated from its result.
 *
 * @example
 * const context = createContextWindow({ budgetTokens: defaultBudgetFor(model), observationLimit: 4000 });
 * const { messages, state } = await context.fit({ head: [system, question], groups: stepGroups }, signal);
 */
export function createContextWindow(options: ContextWindowOptions = {}): ContextWindow {
  const tokens = createMessageTokens(options.countTokens);
  const capped = new WeakMap<Message, Message>();
  const clearedGroups = new WeakMap<Message[], { messages: Message[]; callIds: string[] }>();
  const limit = options.observationLimit;
  const budget = options.budgetTokens;
  const {
    at = COMPACTION_DEFAULTS.at,
    to = COMPACTION_DEFAULTS.to,
    keepSteps = COMPACTION_DEFAULTS.keepSteps,
    clear: clearing = true,
  } = options.compaction ?? {};
  const summaryReserve = budget === undefined ? 0 : (options.summaryTokens ?? Math.min(1024, Math.floor(budget * 0.2)));
  // The window's own state, for callers that do not keep it (the loop does, in the run's state).
  let own: ContextState = NOTHING_LET_GO;
  let firstGroup: Message[] | undefined;

  const cap = (message: Message): Message => {
    // Only text observations are cut; a tool result with an image keeps its parts whole.
    if (message.role !== 'tool' || typeof message.content !== 'string' || limit === undefined) return message;
    if (message.content.length <= limit) return message;
    let short = capped.get(message);
    if (!short) {
      short = { ...message, content: truncateObservation(message.content, limit, { callId: message.toolCallId }) };
      capped.set(message, short);
    }
    return short;
  };
  const sum = (messages: readonly Message[]): number => messages.reduce((n, m) => n + tokens(m), 0);

  return {
    async fit(input, signal) {
      const { head, groups } = input;
      let state = input.state ?? own;
      // A different run's groups (fewer, or another first step): start over.
      if (!input.state && (groups.length < state.cleared || (state.cleared > 0 && groups[0] !== firstGroup))) {
        state = NOTHING_LET_GO;
      }
      firstGroup = groups[0];
      const clearOf = (i: number) => {
        const group = groups[i];
        let cleared = clearedGroups.get(group);
        if (!cleared) {
          cleared = input.clear ? input.clear(i) : clearToolMessages(group);
          clearedGroups.set(group, cleared);
        }
        return cleared;
      };
      const history = groupMessages(input.history ?? []).map((g) => g.map(cap));
      const steps = groups.map((g) => g.map(cap));
      const shown = (s: ContextState, i: number) => (i < s.cleared ? clearOf(i).messages : steps[i]);
      // Earlier turns go between the system prompt and the question.
      const split = head.findIndex((m) => m.role !== 'system');
      const system = split < 0 ? head : head.slice(0, split);
      const rest = split < 0 ? [] : head.slice(split);
      const summaryMessage = (s: ContextState): Message[] =>
        s.summary === undefined
          ? []
          : [{ role: 'user', content: `[Summary of the ${s.folded} earlier steps]\n${s.summary}` }];
      const project = (s: ContextState) => {
        const messages = [...system, ...history.slice(s.historyDropped).flat(), ...rest, ...summaryMessage(s)];
        for (let i = s.folded; i < steps.length; i++) for (const m of shown(s, i)) messages.push(m);
        return messages;
      };
      const measure = (s: ContextState) =>
        sum(head) +
        history.slice(s.historyDropped).reduce((n, g) => n + sum(g), 0) +
        sum(summaryMessage(s)) +
        steps.slice(s.folded).reduce((n, _, k) => n + sum(shown(s, s.folded + k)), 0);
      const done = (fit: Omit<ContextFit, 'messages' | 'state'>, s: ContextState): ContextFit => {
        if (!input.state) own = s;
        return { ...fit, state: s, messages: project(s) };
      };

      if (budget === undefined) return done({}, state);
      let total = measure(state);
      if (total <= budget * at) return done({}, state);

      // One compaction, in a batch: history, then old results, then (if that is not enough) a summary.
      const target = Math.floor(budget * to);
      const fit: Omit<ContextFit, 'messages' | 'state'> = { compactions: [] };
      const start = state;
      const historyDropped = dropHistory(history, state.historyDropped, total - target, sum);
      if (historyDropped > state.historyDropped) {
        state = { ...state, historyDropped };
        total = measure(state);
      }
      const last = steps.length - 1;
      if (clearing) {
        const before = total;
        const oldest = Math.max(state.cleared, state.folded);
        let upTo = Math.max(oldest, steps.length - Math.max(1, keepSteps));
        if (measureCleared(state, upTo) > target) upTo = Math.max(upTo, last);
        if (upTo > oldest) {
          state = { ...state, cleared: upTo };
          total = measure(state);
          const callIds = [];
          for (let i = oldest; i < upTo; i++) callIds.push(...clearOf(i).callIds);
          fit.compactions!.push({ kind: 'clear', tokensBefore: before, tokensAfter: total, callIds });
        }
      }
      if (total > target && state.folded < last) {
        const before = total;
        const reserve = options.summarize ? Math.max(summaryReserve, sum(summaryMessage(state))) : 0;
        let folded = state.folded;
        let left = total - sum(summaryMessage(state)) + reserve;
        while (left > target && folded < last) left -= sum(shown(state, folded++));
        const dropped = [
          ...(state.summary ? summaryMessage(state) : []),
          ...steps.slice(state.folded, folded).flatMap((_, k) => shown(state, state.folded + k)),
        ];
        let summary: string | undefined;
        if (options.summarize) {
          try {
            summary = trimSummary((await options.summarize(dropped, signal)).trim(), summaryReserve);
          } catch (error) {
            if (signal?.aborted) throw error;
            fit.warning = `Could not summarize ${folded - state.folded} dropped steps: ${errorMessage(error)}`;
          }
        }
        const droppedGroups = folded - state.folded;
        state = { ...state, folded, cleared: Math.max(state.cleared, folded), summary: summary ?? state.summary };
        total = measure(state);
        if (summary !== undefined) fit.summary = { text: summary, droppedGroups };
        fit.compactions!.push({ kind: 'summary', tokensBefore: before, tokensAfter: total, callIds: [] });
      }
      const droppedGroups = state.folded - start.folded;
      const droppedHistory = history.slice(start.historyDropped, state.historyDropped).flat().length;
      if (droppedGroups > 0 || droppedHistory > 0)
        fit.dropped = { historyMessages: droppedHistory, groups: droppedGroups };
      if (fit.compactions!.length === 0) delete fit.compactions;
      if (total > budget && !fit.warning) {
        fit.warning = `The prompt needs ${total} tokens, over the ${budget}-token budget even after compacting.`;
      }
      return done(fit, state);

      function measureCleared(s: ContextState, upTo: number): number {
        return measure({ ...s, cleared: Math.max(s.cleared, upTo) });
      }
    },
  };
}

/** How many leading history groups are dropped to free `excess` tokens (never fewer than already were). */
function dropHistory(
  history: Message[][],
  already: number,
  excess: number,
  sum: (messages: readonly Message[]) => number,
): number {
  let dropped = already;
  while (excess > 0 && dropped < history.length) excess -= sum(history[dropped++]);
  return dropped;
}

/** Keeps a summary within its reserve (roughly 4 characters per token), so it cannot crowd out the steps. */
function trimSummary(text: string, reserveTokens: number): string {
  const maxChars = reserveTokens * 4;
  return maxChars > 0 && text.length > maxChars ? `${text.slice(0, maxChars)} …` : text;
}
