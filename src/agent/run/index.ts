// A run: its options, state, loop config, checkpoints, messages, abort, end, events and ids.
export type * from './agent-options.js';
export { announceRun, startWarnings } from './announce-run.js';
export type { EditedPrompt, PromptHead } from './build-messages.js';
export type { PendingStep } from './checkpointer.js';
export { endRun, failure } from './end-run.js';
export { streamRun } from './event-channel.js';
export { ABORTED, linkAbort, neverSignal } from './link-abort.js';
export {
  createRunContext,
  type LoopConfig,
  type OfferContext,
  type RunBuiltin,
  type RunContext,
  type RunTools,
} from './loop-config.js';
export { featureFix, loadOlderFeature, type OlderFeature, setFeatureImport } from './older-options.js';
export { type Routing, routingFor } from './run-routing.js';
export type { BuiltinsFor, Gathered, Made, Setup } from './run-setup.js';
export {
  addChildUsage,
  addUsage,
  countCall,
  createRunState,
  type Emit,
  event,
  fanOut,
  type RunScope,
  type RunState,
  remainingBudget,
  toolEndEvent,
} from './run-state.js';
