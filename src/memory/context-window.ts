import { errorMessage, type Message } from '../core/index.js';
import { truncateObservation } from '../tools/index.js';
import { groupMessages } from './group-messages.js';
import { type CountTokens, createMessageTokens } from './message-tokens.js';

/** Writes a summary of messages the context no longer has room for (the previous summary comes first). */
export type Summarize = (messages: Message[], signal?: AbortSignal) => Promise<string>;

export interface ContextWindowOptions {
  /** Prompt tokens allowed per model call; `undefined` means no trimming (see `defaultBudgetFor`). */
  budgetTokens?: number;
  /** Characters per tool message before it is cut to head + tail. Default: no cap. */
  observationLimit?: number;
  /** Replaces dropped steps by a summary; without it they are just dropped. */
  summarize?: Summarize;
  /** Counts one text's tokens. Default: `countTokens` (exact o200k with gpt-tokenizer installed, else the tokenx estimate). */
  countTokens?: CountTokens;
  /** Once over budget, trim down to this fraction of it, so trimming (and summarizing) is not needed every step. Default 0.75. */
  trimTo?: number;
  /** Tokens kept for the summary message. Default min(1024, 20% of the budget). */
  summaryTokens?: number;
}

/** What the loop hands over each step. Only `groups` grows between calls of one run. */
export interface ContextInput {
  /** System prompt and the question: always kept, never capped. */
  head: Message[];
  /** Earlier conversation turns (a session's history), placed after the head's system messages and before the question; trimmed first, oldest first. */
  history?: Message[];
  /** One atomic group per step, oldest first: an assistant tool-call message with its tool results. */
  groups: Message[][];
}

export interface ContextFit {
  messages: Message[];
  /** Set when this call folded steps into the summary: the loop emits `context_summary` from it. */
  summary?: { text: string; droppedGroups: number };
  /** Set when this call dropped anything (with or without a summary). */
  dropped?: { historyMessages: number; groups: number };
  /** Set when the summary could not be written, or the prompt is over budget even after trimming. */
  warning?: string;
}

/** A per-run context manager: `fit()` projects the run's messages into the token budget. */
export interface ContextWindow {
  fit(input: ContextInput, signal?: AbortSignal): Promise<ContextFit>;
}

/**
 * Creates the short-term memory of one run. It keeps the head and the most recent steps, drops
 * history first, then folds the oldest steps into one summary, updated incrementally (the old
 * summary plus the newly dropped steps), and caps every observation. Dropped steps stay dropped
 * for the rest of the run, so the prompt prefix is stable between calls.
 *
 * @example
 * const context = createContextWindow({ budgetTokens: defaultBudgetFor(model), observationLimit: 4000 });
 * const { messages, summary } = await context.fit({ head: [system, question], groups: stepGroups }, signal);
 */
export function createContextWindow(options: ContextWindowOptions = {}): ContextWindow {
  const tokens = createMessageTokens(options.countTokens);
  const capped = new WeakMap<Message, Message>();
  const limit = options.observationLimit;
  const budget = options.budgetTokens;
  const trimTo = options.trimTo ?? 0.75;
  const summaryReserve = budget === undefined ? 0 : (options.summaryTokens ?? Math.min(1024, Math.floor(budget * 0.2)));

  // What this run has already let go of: leading history groups and leading step groups.
  let historyDropped = 0;
  let folded = 0;
  let summary: Message | undefined;
  let firstGroup: Message[] | undefined;

  const cap = (message: Message): Message => {
    // Only text observations are cut; a tool result with an image keeps its parts whole.
    if (message.role !== 'tool' || typeof message.content !== 'string' || limit === undefined) return message;
    if (message.content.length <= limit) return message;
    let short = capped.get(message);
    if (!short) {
      short = { ...message, content: truncateObservation(message.content, limit) };
      capped.set(message, short);
    }
    return short;
  };
  const sum = (messages: readonly Message[]): number => messages.reduce((n, m) => n + tokens(m), 0);

  return {
    async fit(input, signal) {
      const { head, groups } = input;
      // A different run's groups (fewer, or another first step): start over.
      if (groups.length < folded || (folded > 0 && groups[0] !== firstGroup)) {
        historyDropped = 0;
        folded = 0;
        summary = undefined;
      }
      firstGroup = groups[0];
      const history = groupMessages(input.history ?? []).map((g) => g.map(cap));
      const steps = groups.map((g) => g.map(cap));
      // Earlier turns go between the system prompt and the question.
      const split = head.findIndex((m) => m.role !== 'system');
      const system = split < 0 ? head : head.slice(0, split);
      const rest = split < 0 ? [] : head.slice(split);
      const project = () => [
        ...system,
        ...history.slice(historyDropped).flat(),
        ...rest,
        ...(summary ? [summary] : []),
        ...steps.slice(folded).flat(),
      ];
      if (budget === undefined) return { messages: project() };

      const reserve = options.summarize ? Math.max(summaryReserve, summary ? tokens(summary) : 0) : 0;
      let total =
        sum(head) +
        history.slice(historyDropped).reduce((n, g) => n + sum(g), 0) +
        (summary ? tokens(summary) : 0) +
        steps.slice(folded).reduce((n, g) => n + sum(g), 0);
      if (total <= budget) return { messages: project() };

      const target = Math.floor(budget * trimTo);
      total += reserve - (summary ? tokens(summary) : 0);
      const historyBefore = historyDropped;
      while (total > target && historyDropped < history.length) total -= sum(history[historyDropped++]);
      const foldedBefore = folded;
      while (total > target && folded < steps.length - 1) total -= sum(steps[folded++]);

      const fit: ContextFit = { messages: [] };
      const droppedGroups = folded - foldedBefore;
      const droppedHistory = history.slice(historyBefore, historyDropped).flat().length;
      if (droppedGroups > 0 || droppedHistory > 0)
        fit.dropped = { historyMessages: droppedHistory, groups: droppedGroups };
      if (droppedGroups > 0 && options.summarize) {
        const input = [...(summary ? [summary] : []), ...steps.slice(foldedBefore, folded).flat()];
        try {
          const text = trimSummary((await options.summarize(input, signal)).trim(), summaryReserve);
          summary = { role: 'user', content: `[Summary of the ${folded} earlier steps]\n${text}` };
          fit.summary = { text, droppedGroups };
        } catch (error) {
          if (signal?.aborted) throw error;
          fit.warning = `Could not summarize ${droppedGroups} dropped steps: ${errorMessage(error)}`;
        }
      }
      fit.messages = project();
      const final = sum(fit.messages);
      if (final > budget && !fit.warning) {
        fit.warning = `The prompt needs ${final} tokens, over the ${budget}-token budget even after trimming.`;
      }
      return fit;
    },
  };
}

/** Keeps a summary within its reserve (roughly 4 characters per token), so it cannot crowd out the steps. */
function trimSummary(text: string, reserveTokens: number): string {
  const maxChars = reserveTokens * 4;
  return maxChars > 0 && text.length > maxChars ? `${text.slice(0, maxChars)} …` : text;
}
