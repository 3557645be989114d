import type { AgentEvent, EventOf, ResponseFormat, RunResult, Step } from '../core/index.js';
import type { Model } from '../llm/index.js';
import type { ContextWindow } from '../memory/index.js';
import type { Language, PromptContext, Protocol } from '../protocols/index.js';
import type { AgentOptions, RunOptions } from './agent-options.js';
import type { Router } from './route-step-tools.js';
import type { RunState } from './run-state.js';
import type { ToolRunner } from './tool-runner.js';

/** Where the loop sends its events. */
export type Emit = (event: AgentEvent) => void;

/** Everything one run needs, resolved from the agent's options and the run's options. */
export interface LoopConfig {
  model: Model;
  protocol: Protocol;
  tools: ToolRunner;
  prompt: PromptContext;
  /** Structured output asked of the provider (native protocol with an outputSchema). */
  responseFormat?: ResponseFormat;
  /** The system prompt text, when the caller already rendered it (the Agent caches it across runs). */
  system?: string;
  language: Language;
  options: AgentOptions;
  run: RunOptions & { runId: string };
  /** Keeps each prompt within the token budget (absent when there is no budget). */
  context?: ContextWindow;
  /** Memories recalled into the system prompt before the run (for the `memory_recall` event). */
  recalled?: EventOf<'memory_recall'>['memories'];
  /** Problems found before the loop started (e.g. memory recall failed), emitted as warnings after `run_start`. */
  warnings?: { code: string; message: string }[];
  /** Called with the result before `run_end` (the agent stores episodes here); may emit events. */
  /** Called once with the run's live state (the agent shares it with child agents run as tools). */
  bindState?: (state: RunState) => void;
  /** Nobody subscribes to the events: skip building them. */
  silent?: boolean;
  /** Picks each step's tools when the agent has many (absent: every step sees every tool). */
  router?: Router;
  /** Handoff tool names; calling one passes the conversation to `handoff`. */
  handoffTools?: ReadonlySet<string>;
  handoff?: (tool: string, step: Step, state: RunState, signal: AbortSignal, emit: Emit) => Promise<RunResult>;
  onFinish?: (result: RunResult, emit: Emit, state: RunState) => Promise<void>;
}
