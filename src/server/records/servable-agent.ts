import type { RunOptions } from '../../agent/index.js';
import type { RunResult } from '../../core/index.js';
import type { Workspace } from '../../workspace/index.js';
import type { RunRecord } from './run-record.js';
import type { RunStore } from './run-store.js';

/** What the server needs of an agent: `Agent` fits, and so does anything with the same `run`. */
export interface ServableAgent {
  readonly name?: string;
  /** The run's workspace, when the agent has one of its own per run (`withRunWorkspace`). */
  readonly workspace?: Workspace;
  run(input: string, options?: RunOptions): Promise<RunResult>;
}

/** What a factory learns of the run it makes an agent for: the run as stored, and the store (its log). */
export interface AgentRunContext {
  run: RunRecord;
  store: RunStore;
  /** Open the run's workspace as it was when this step began (a rewind), not where the run left it. */
  rewindTo?: number;
}

/**
 * An agent, or a factory the server calls once per run (so each run gets fresh state). The factory gets
 * the run it is for, except where no run is (replaying a trace).
 */
export type AgentEntry = ServableAgent | ((context?: AgentRunContext) => ServableAgent | Promise<ServableAgent>);

/** The agent for one run. */
export async function resolveAgent(entry: AgentEntry, context?: AgentRunContext): Promise<ServableAgent> {
  return typeof entry === 'function' ? await entry(context) : entry;
}
