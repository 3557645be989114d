import type { RunOptions } from '../../agent/index.js';
import type { RunResult } from '../../core/index.js';

/** What the server needs of an agent: `Agent` fits, and so does anything with the same `run`. */
export interface ServableAgent {
  readonly name?: string;
  run(input: string, options?: RunOptions): Promise<RunResult>;
}

/** An agent, or a factory the server calls once per run (so each run gets fresh state). */
export type AgentEntry = ServableAgent | (() => ServableAgent | Promise<ServableAgent>);

/** The agent for one run. */
export async function resolveAgent(entry: AgentEntry): Promise<ServableAgent> {
  return typeof entry === 'function' ? await entry() : entry;
}
