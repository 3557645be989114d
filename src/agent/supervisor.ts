import { ConfigError } from '../core/index.js';
import type { AnyTool } from '../tools/index.js';
import { Agent } from './agent.js';
import type { AgentOptions } from './run/index.js';

/** A named worker: an agent with its own model and tools, and what it is good at. */
export interface SupervisorWorker {
  /** An Agent, or anything else with `asTool` (a `planAndExecute` runner). */
  agent: Pick<Agent, 'asTool'>;
  /** Tells the supervisor's model when to send this worker a sub-task. */
  description: string;
}

/** Options for `createSupervisor()`: an Agent's options, plus the workers it routes to. */
export interface SupervisorOptions<T = unknown> extends AgentOptions<T> {
  /** The workers by tool name (letters, digits, `_` or `-`). */
  workers: Record<string, SupervisorWorker>;
  /** Added after the routing instructions. */
  instructions?: string;
}

const ROUTING = [
  'You are a supervisor. You do not do the work yourself: you split the task into sub-tasks and send each',
  'to the worker best suited to it, by calling that worker with the sub-task and all the context it needs',
  '(workers see nothing but what you send). Call several workers when the task needs several skills,',
  'at once when the sub-tasks are independent. If a worker fails, try another way or another worker.',
  'When you have what you need, merge the workers’ results into one complete answer to the original task.',
  'Workers:',
].join('\n');

/**
 * A supervisor: an Agent whose tools are its workers (each via `agent.asTool`). Its model routes
 * sub-tasks to the right workers and merges their results. A worker's events nest under the
 * supervisor's run, a worker never gets more budget than the supervisor has left, and a worker that
 * fails becomes an observation (`Tool X failed: ...`) the supervisor can work around.
 *
 * @example
 * const supervisor = createSupervisor({
 *   model: openaiCompatible({ model: 'gpt-4o' }),
 *   workers: {
 *     researcher: { agent: researcher, description: 'Finds facts on the web' },
 *     analyst: { agent: analyst, description: 'Computes statistics over data' },
 *   },
 *   budget: { maxTotalTokens: 100_000 },
 * });
 * const result = await supervisor.run('How did the population of Lyon grow since 2000?');
 */
export function createSupervisor<T = unknown>(options: SupervisorOptions<T>): Agent<T> {
  const { workers, instructions, tools = [], ...rest } = options;
  const entries = Object.entries(workers ?? {});
  if (entries.length === 0) {
    throw new ConfigError({
      message: 'createSupervisor() needs at least one worker: { workers: { name: { agent, description } } }.',
    });
  }
  const workerTools: AnyTool[] = entries.map(([name, worker]) =>
    worker.agent.asTool({ name, description: worker.description }),
  );
  const roster = entries.map(([name, worker]) => `- ${name}: ${worker.description}`).join('\n');
  return new Agent<T>({
    ...rest,
    tools: [...workerTools, ...tools],
    instructions: [`${ROUTING}\n${roster}`, instructions].filter(Boolean).join('\n\n'),
  });
}
