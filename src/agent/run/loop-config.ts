import type { EventOf, Message, ResponseFormat, RunResult, Step, ToolSpec } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { ContextWindow } from '../../memory/index.js';
import type { Language, PromptContext, Protocol } from '../../protocols/index.js';
import type { Skill } from '../../skills/index.js';
import type { AnyTool, ExecuteOptions, ToolExecutor, ToolRegistry } from '../../tools/index.js';
import {
  createRepetitionTracker,
  createSameObservationTracker,
  type RepetitionTracker,
  type SameObservationTracker,
} from '../guards/index.js';
import type { ToolRouter } from '../routing/index.js';
import type { AgentOptions, RunOptions } from './agent-options.js';
import { createPromptProjector, createStepProjector, type PromptHead } from './build-messages.js';
import { type Checkpointer, createCheckpointer } from './checkpointer.js';
import { linkAbort } from './link-abort.js';
import type { Emit, RunScope, RunState } from './run-state.js';

export type { Emit } from './run-state.js';

/**
 * A run's tools: its own copy of the agent's registry (a tool disabled after repeated failures stays
 * enabled for the next run) and the one executor that runs calls against it (`createRunTools`).
 */
export interface RunTools {
  registry: ToolRegistry;
  executor: ToolExecutor;
  /** The executor for calls made from inside a tool against another tool list (code mode), same options; `registry`'s is `executor`. */
  executorFor(registry: ToolRegistry): ToolExecutor;
}

/** Everything one run needs, resolved from the agent's options and the run's options. */
export interface LoopConfig {
  model: Model;
  protocol: Protocol;
  tools: RunTools;
  prompt: PromptContext;
  /** Structured output asked of the provider (native protocol with an outputSchema). */
  responseFormat?: ResponseFormat;
  language: Language;
  options: AgentOptions;
  run: RunOptions;
  /** Keeps each prompt within the token budget (absent when there is no budget). */
  context?: ContextWindow;
  /** Memories recalled into the system prompt before the run (for the `memory_recall` event). */
  recalled?: EventOf<'memory_recall'>['memories'];
  /** Problems found before the loop started (e.g. memory recall failed), emitted as warnings after `run_start`. */
  warnings?: { code: string; message: string }[];
  /** Picks each step's tools when the agent has many (absent: every step sees every tool). */
  router?: ToolRouter;
  /** Tools the loop adds and offers only at steps that need them (`search_tools`...); registered in `tools`. */
  builtins?: RunBuiltin[];
  /** The agent's skills (a loaded skill's `allowed-tools` narrow the tools offered). */
  skills?: readonly Skill[];
  /** Handoff tool names; calling one passes the conversation to `handoff`. */
  handoffTools?: ReadonlySet<string>;
  handoff?: (tool: string, step: Step, scope: RunScope) => Promise<RunResult>;
  /** Called with the result before `run_end` (the agent stores episodes here); may emit events. */
  onFinish?: (result: RunResult, scope: RunScope) => void | Promise<void>;
}

/** One run as the loop's helpers see it: its scope and config, plus the per-run helpers the loop made. */
export interface RunContext extends RunScope {
  config: LoopConfig;
  /** Set for durable runs: checkpoints written before each model call and as each call ends. */
  checkpoints?: Checkpointer;
  /** A step's messages, computed once per step (`createStepProjector`). */
  project: (step: Step) => Message[];
  /** The prompt of the steps so far (`projectMessages`), extended step by step (`createPromptProjector`). */
  prompt: (head: PromptHead, steps: readonly Step[]) => Message[];
  /** The size of the array `prompt` last returned, as `roughUsage` counts it; undefined for any other array. */
  promptChars: (messages: readonly Message[]) => number | undefined;
  repetition: RepetitionTracker;
  sameObservation: SameObservationTracker;
  /** The built-ins made and registered so far in this run, with their specs (`withBuiltins`). */
  builtinSpecs?: Map<RunBuiltin, ToolSpec>;
  /** What the executor is told of each call of the current step (`runTools`): made once per run, its `step` moved on. */
  callHooks?: { step: number; options: ExecuteOptions };
  /** Set by a tool during a step to end the run after it: with an answer (code mode's `final_answer`) or an error. */
  ending?: { answer: string } | { error: Error };
}

/**
 * The context of one run of the loop, and its abort: one signal that fires when the caller aborts or
 * the time budget runs out (`abort.reason()` says which; `abort.dispose()` once the loop is done).
 */
export function createRunContext(state: RunState, config: LoopConfig, emit: Emit) {
  const { options, run } = config;
  const abort = linkAbort(run.signal, (run.budget ?? options.budget)?.maxDurationMs);
  const project = createStepProjector(config.protocol, config.language);
  // Without a context window each step is projected once, by the growing prompt: no per-step cache needed.
  const projector = createPromptProjector(
    config.context ? project : (step) => config.protocol.stepMessages(step, config.language),
  );
  const ctx: RunContext = {
    state,
    config,
    emit,
    signal: abort.signal,
    journal: run.journal,
    checkpoints: createCheckpointer(run.onCheckpoint),
    project,
    prompt: projector.prompt,
    promptChars: projector.chars,
    // Made when a built-in is first offered (the field stays in the literal: one object shape).
    builtinSpecs: undefined,
    repetition: createRepetitionTracker(),
    sameObservation: createSameObservationTracker({
      limit: options.sameObservationLimit ?? 3,
      threshold: options.sameObservationThreshold ?? 0.8,
    }),
  };
  return { ctx, abort };
}

/** What a built-in tool sees when the loop decides whether to offer it this step. */
export interface OfferContext {
  ctx: RunContext;
  /** The tools this step offers so far (routed, or narrowed by a skill). */
  specs: readonly ToolSpec[];
  /** Every tool of the run the user registered (built-ins left out). */
  all: readonly ToolSpec[];
}

/**
 * A tool the loop adds on its own (`search_tools`, `load_skill`...), offered to the model only at steps
 * where `offered` says it is of use; routing never ranks it away. It is made and registered in the run's
 * registry the first time it is offered (hidden: callable, never listed), so the one executor runs it
 * (validation, events, approvals as for any tool), and a run that never needs it pays nothing for it.
 */
export interface RunBuiltin {
  name: string;
  /** Makes the tool (once, at its first offer). */
  make(): AnyTool;
  offered(offer: OfferContext): boolean;
}
