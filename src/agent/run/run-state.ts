import {
  type AgentEvent,
  type AgentEventType,
  addStats,
  type EventOf,
  emptyStats,
  type ForkedFrom,
  type RunStats,
  type RunUsage,
  type Step,
  type StepJournal,
  type ToolCallRecord,
  type Usage,
} from '../../core/index.js';
import type { ContextState } from '../../memory/index.js';
import type { Budget } from '../guards/index.js';
import type { EditedPrompt } from './build-messages.js';

/** Where a run sends its events. */
export type Emit = (event: AgentEvent) => void;

/** What every phase of a run works with: its state, its abort signal, and where its events go. */
export interface RunScope {
  state: RunState;
  signal: AbortSignal;
  emit: Emit;
  /** A durable engine's step journal: model calls go through it (`askModel`). */
  journal?: StepJournal;
}

/** An `Emit` that hands each event to every subscriber; a subscriber that throws must not break the run. */
export function fanOut(subscribers: readonly ((event: AgentEvent) => void)[]): Emit {
  return (event) => {
    for (const subscriber of subscribers) {
      try {
        subscriber(event);
      } catch {
        // A consumer's bug is not the run's failure.
      }
    }
  };
}

/** The mutable state of one run. Only the loop changes it. */
export interface RunState {
  runId: string;
  parentRunId?: string;
  input: string;
  steps: Step[];
  usage: RunUsage;
  stats: RunStats;
  startedAt: number;
  invalidStreak: number;
  /** The run already warned that its model reads no images or files. */
  mediaWarned?: boolean;
  /** Nobody listens to this run's events, so none are built. */
  silent?: boolean;
  /** Set for a fork: the run and step it came from. */
  forkedFrom?: ForkedFrom;
  /** A fork's edited messages, standing for the prompt before its first steps. */
  edited?: EditedPrompt;
  /** What the context window has let go of (cleared, folded, summarized): checkpointed, so a resume sends the same prompt. */
  context?: ContextState;
  /** `recall_result` has been offered (it stays offered, so the tools do not change back and forth). */
  recallOffered?: boolean;
}

export function createRunState(run: NewRun): RunState {
  const { resume } = run;
  const state: RunState = {
    runId: run.runId,
    parentRunId: run.parentRunId,
    input: run.input,
    steps: resume ? [...resume.steps] : [],
    usage: resume ? { ...resume.usage } : { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
    stats: resume ? addStats(emptyStats(), resume.stats) : emptyStats(),
    startedAt: Date.now(),
    invalidStreak: 0,
    silent: run.silent,
  };
  // A fork keeps where it came from in every checkpoint, so it resumes as the fork it is.
  if (resume?.forkedFrom) state.forkedFrom = resume.forkedFrom;
  if (resume?.edited) state.edited = resume.edited;
  if (resume?.context) state.context = resume.context;
  return state;
}

/** What a new run's state starts from: its ids and question, and a checkpoint's totals when it resumes. */
export interface NewRun {
  runId: string;
  input: string;
  parentRunId?: string;
  resume?: {
    steps: Step[];
    usage: RunUsage;
    stats: RunStats;
    forkedFrom?: ForkedFrom;
    edited?: EditedPrompt;
    context?: ContextState;
  };
  /** Nobody listens to the run's events. */
  silent?: boolean;
}

/** Adds one model call's usage to the run's totals. */
export function addUsage(state: RunState, usage: Usage | undefined, cached: boolean): void {
  state.usage.llmCalls += 1;
  state.stats.llmCalls += 1;
  if (cached) state.stats.cacheHits += 1;
  if (!usage) return;
  if (usage.cacheReadTokens) state.stats.cachedTokens += usage.cacheReadTokens;
  addTokens(state.usage, usage);
}

/** Adds token counts (the detail fields only when the provider reported them, so totals stay sparse). */
function addTokens(total: RunUsage, usage: Usage | RunUsage): void {
  total.promptTokens += usage.promptTokens;
  total.completionTokens += usage.completionTokens;
  if (usage.reasoningTokens) total.reasoningTokens = (total.reasoningTokens ?? 0) + usage.reasoningTokens;
  if (usage.cacheReadTokens) total.cacheReadTokens = (total.cacheReadTokens ?? 0) + usage.cacheReadTokens;
  if (usage.cacheWriteTokens) total.cacheWriteTokens = (total.cacheWriteTokens ?? 0) + usage.cacheWriteTokens;
  if (usage.estimated) total.estimated = true;
}

type EventFields<T extends AgentEventType> = Omit<EventOf<T>, 'type' | 'runId' | 'parentRunId' | 'ts'>;

/** Returned instead of a new event when nobody listens. */
const SILENT: AgentEvent = Object.freeze({ type: 'warning', runId: '', ts: 0, code: 'silent', message: '' });

/** Builds an event stamped with the run's ids and the time. */
export function event<T extends AgentEventType>(state: RunState, type: T, fields: EventFields<T>): AgentEvent {
  if (state.silent) return SILENT;
  const { runId, parentRunId } = state;
  const base = parentRunId
    ? { type, runId, parentRunId, ts: Date.now(), ...fields }
    : { type, runId, ts: Date.now(), ...fields };
  return base as AgentEvent;
}

/** The `tool_end` event of a finished call (with `parentCallId` for one a tool made from inside it). */
export function toolEndEvent(state: RunState, step: number, r: ToolCallRecord, parentCallId?: string): AgentEvent {
  const nested = parentCallId === undefined ? {} : { parentCallId };
  const { id: callId, durationMs: ms, ok, output, error } = r;
  return event(state, 'tool_end', { step, callId, tool: r.tool ?? r.name, ms, ok, output, error, ...nested });
}

/** Adds one call, and its failure and retries, to the run's stats. */
export function countCall(record: ToolCallRecord, stats: RunStats): void {
  stats.toolCalls += 1;
  if (!record.ok) stats.toolErrors += 1;
  if (record.attempts !== undefined && record.attempts > 1) stats.retries += record.attempts - 1;
}

/** What is left of a budget given the run's use so far (undefined when the run has no budget). */
export function remainingBudget(budget: Budget | undefined, state: RunState): Budget | undefined {
  if (!budget) return undefined;
  const used = state.usage.promptTokens + state.usage.completionTokens;
  return {
    maxTotalTokens: budget.maxTotalTokens === undefined ? undefined : Math.max(0, budget.maxTotalTokens - used),
    maxDurationMs:
      budget.maxDurationMs === undefined
        ? undefined
        : Math.max(0, budget.maxDurationMs - (Date.now() - state.startedAt)),
  };
}

/** Adds a child run's tokens and calls to this run's totals, so budgets see nested work. */
export function addChildUsage(state: RunState, usage: RunUsage): void {
  addTokens(state.usage, usage);
  state.usage.llmCalls += usage.llmCalls;
}
