import type { Message } from '../../core/index.js';
import type { ResolvedSkills, Skill } from '../../skills/index.js';
import type { ToolRouter } from '../routing/index.js';
import type { LoopConfig, RunTools } from './loop-config.js';
import type { Routing } from './run-routing.js';
import type { Emit, RunState } from './run-state.js';

// The shapes the Agent makes a run with, between `run()` and the loop (agent.ts: #setup, #gather, #build).

/** What a run's setup may have to wait for (`Agent.#gather`). */
export interface Gathered {
  history: Message[] | undefined;
  /** The history came from a session. */
  sessions?: boolean;
  recall: { block: string; memories: NonNullable<LoopConfig['recalled']>; warning?: string };
  resolved: ResolvedSkills;
  routing: Routing;
}

/** Who makes a run: its id, who hears its events, and whether anyone does. */
export interface Made {
  runId: string;
  emit: Emit;
  silent: boolean;
}

/** A run, made and not started: its state and loop config. */
export interface Setup {
  state: RunState;
  config: LoopConfig;
}

/** What the run's built-in tools are made from. */
export interface BuiltinsFor {
  tools: RunTools;
  router?: ToolRouter;
  state: RunState;
  emit: Emit;
  skills: readonly Skill[];
  listedAll: boolean;
}
