import { z } from 'zod';
import type { RunResult } from '../../core/index.js';
import { defineTool, type Tool } from '../../tools/index.js';
import type { Budget, RunOptions } from '../run/index.js';

/** The part of an Agent that `asTool` needs (kept structural so this file does not import agent.ts). */
export interface RunnableAgent {
  readonly options: { budget?: Budget };
  run(input: string, options?: RunOptions): Promise<RunResult>;
}

export interface AsToolOptions {
  name: string;
  description: string;
  /** Longest the child run may take, in ms. Default 10 minutes (tools default to 1 minute). */
  timeoutMs?: number;
}

/**
 * Wraps an agent as a tool another agent can call. The child's events are nested under the
 * caller's (their `parentRunId` is the caller's run), its tokens count toward the caller's usage,
 * and it never gets more budget than the caller has left. A child that does not finish `done`
 * fails the call, so the caller's model sees why.
 */
export function agentAsTool(agent: RunnableAgent, options: AsToolOptions): Tool<{ task: string }, string> {
  return defineTool({
    name: options.name,
    description: options.description,
    input: z.object({ task: z.string().describe('The sub-task, with all the context the agent needs to do it alone') }),
    timeoutMs: options.timeoutMs ?? 600_000,
    run: async ({ task }, ctx) => {
      const parent = ctx.parent;
      const result = await agent.run(task, {
        signal: ctx.signal,
        parentRunId: parent?.runId,
        onEvent: parent ? (event) => parent.emit(event) : undefined,
        budget: tighter(agent.options.budget, parent?.remainingBudget()),
      });
      parent?.addUsage(result.usage);
      if (result.status !== 'done') {
        const partial = result.output ? ` Partial answer: ${result.output}` : '';
        throw new Error(
          `${options.name} ended ${result.status}: ${result.error?.message ?? 'no reason given'}.${partial}`,
        );
      }
      return result.output;
    },
  });
}

/** The stricter of two budgets, limit by limit. */
export function tighter(a: Budget | undefined, b: Budget | undefined): Budget | undefined {
  if (!a) return b;
  if (!b) return a;
  const min = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  return {
    maxTotalTokens: min(a.maxTotalTokens, b.maxTotalTokens),
    maxDurationMs: min(a.maxDurationMs, b.maxDurationMs),
  };
}
