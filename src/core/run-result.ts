import type { ReplyHabit } from './parsed-step.js';
import type { Step } from './step.js';

export type RunStatus = 'done' | 'max_steps' | 'loop_detected' | 'aborted' | 'failed' | 'budget_exceeded';

/** Token and call totals for a run. */
export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
  /** Of the completion tokens, how many were reasoning (when a provider reported it). */
  reasoningTokens?: number;
  /** Of the prompt tokens, how many were read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** Of the prompt tokens, how many were written to the provider's prompt cache. */
  cacheWriteTokens?: number;
  /** Set when any call's usage was estimated rather than reported. */
  estimated?: boolean;
  /** Cost in US dollars, when a price is known for the model; unset (not 0, not a guess) when it is not. See `costOf`. */
  costUsd?: number;
}

/** What happened in a run, counted, so a developer sees at once why it went the way it did. */
export interface RunStats {
  llmCalls: number;
  toolCalls: number;
  toolErrors: number;
  invalidReplies: number;
  /** Replies read despite a formatting slip (repaired JSON or a habit read through), run without a correction. */
  repairedReplies: number;
  /** How many replies showed each formatting habit (see `REPLY_HABITS`); a reply may show several. */
  habits: Partial<Record<ReplyHabit, number>>;
  repetitionWarnings: number;
  retries: number;
  cacheHits: number;
  /** Prompt tokens the provider reported reading from its prompt cache (`cacheReadTokens`, summed over the run's calls). */
  cachedTokens: number;
  /** Times the context was compacted (`context_compact` events). */
  compactions: number;
}

export interface RunError {
  code: string;
  message: string;
}

/** Where a forked run came from: the run, and the step it ran again from (`agent.fork`). */
export interface ForkedFrom {
  runId: string;
  fromStep: number;
}

/** The outcome of `agent.run()`. */
export interface RunResult<T = unknown> {
  runId: string;
  status: RunStatus;
  /** The final answer text (for `max_steps`, the best answer from what was gathered, if any). */
  output: string;
  /** The validated object when the agent has an `outputSchema`. */
  object?: T;
  steps: Step[];
  usage: RunUsage;
  stats: RunStats;
  durationMs: number;
  /** Why the run ended when it did not end `done`. */
  error?: RunError;
  /** Set for a fork: the run it came from. Its first `fromStep` steps (and their usage) were carried over, not run again. */
  forkedFrom?: ForkedFrom;
}

export function emptyStats(): RunStats {
  return {
    llmCalls: 0,
    toolCalls: 0,
    toolErrors: 0,
    invalidReplies: 0,
    repairedReplies: 0,
    habits: {},
    repetitionWarnings: 0,
    retries: 0,
    cacheHits: 0,
    cachedTokens: 0,
    compactions: 0,
  };
}

/**
 * Adds `source`'s counts to `target` (a sub-run's stats to its parent's, a checkpoint's to a resumed
 * run's) and returns `target`. Stats saved before a count existed add nothing for it.
 */
export function addStats(target: RunStats, source: Partial<RunStats>): RunStats {
  for (const key of Object.keys(target) as (keyof RunStats)[]) {
    if (key === 'habits') continue;
    const value = source[key];
    if (typeof value === 'number') target[key] += value;
  }
  for (const [habit, count] of Object.entries(source.habits ?? {}) as [ReplyHabit, number][]) {
    target.habits[habit] = (target.habits[habit] ?? 0) + count;
  }
  return target;
}
