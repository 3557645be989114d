import type { Message, ToolSpec } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { PromptContext } from '../../protocols/index.js';
import { activeSkill, allowedBy, clearedStep, foundTools, withBuiltins } from '../calls/index.js';
import { SEARCH_LIMIT, type ToolRouter } from '../routing/index.js';
import type { LoopConfig, PromptHead, RunContext, StepState } from '../run/index.js';
import { event } from '../run/index.js';
import { systemPromptFor } from './system-prompt-cache.js';

/** What one step sends: the model to ask, the messages, and the tools it may call. */
export interface PreparedStep {
  model: Model;
  messages: Message[];
  /** The tools the model sees this step (all of the run's, unless routed or chosen by `beforeStep`). */
  specs: ToolSpec[];
  /** The request's `tools` field (native protocol; undefined for text protocols, which put `specs` in the prompt). */
  tools: ToolSpec[] | undefined;
  /** `messages` as `roughUsage` counts them, when the run's prompt was sent as projected (else counted when needed). */
  chars: number | undefined;
}

/** The system message of a prompt. The one place it is rendered (and cached across runs by `systemPromptFor`). */
export function systemMessage(config: LoopConfig, prompt: PromptContext = config.prompt): Message {
  return { role: 'system', content: systemPromptFor(config.protocol, prompt) };
}

type DraftStep = { model: Model; messages: Message[]; specs: ToolSpec[] };

/**
 * Prepares step `index`: the prompt projected from the steps so far (fitted into the token budget
 * when there is one), then this step's tools (the router's pick when the agent has many), then
 * whatever `beforeStep` changes. The prompt is fitted with the run's full system message; a step
 * with fewer tools has its own system message put in its place. Without a window, a router or a
 * `beforeStep` nothing waits, and the step comes back as it is, not as a promise (one fewer per step).
 */
export function prepareStep(ctx: RunContext, head: PromptHead, index: number): PreparedStep | Promise<PreparedStep> {
  const { config } = ctx;
  if (config.context || config.router || config.options.beforeStep) return prepareAwaited(ctx, head, index);
  const messages = ctx.prompt(head, ctx.state.steps);
  const step = prepared(ctx, narrowed(ctx, { model: config.model, messages, specs: config.prompt.tools }));
  // The projector's count holds only for its own array (a skill or a built-in may replace the system message).
  step.chars = step.messages === messages ? ctx.promptChars(messages) : undefined;
  return step;
}

async function prepareAwaited(ctx: RunContext, head: PromptHead, index: number): Promise<PreparedStep> {
  const { config } = ctx;
  const messages = config.context ? await fitContext(ctx, head, index) : ctx.prompt(head, ctx.state.steps);
  let step: DraftStep = { model: config.model, messages, specs: config.prompt.tools };
  if (config.router) step = withTools(config, step, await routeTools(ctx, config.router, index));
  step = narrowed(ctx, step);
  const before = config.options.beforeStep && (await config.options.beforeStep(stepState(ctx, index, step)));
  if (before?.tools) {
    // A different tool set for this step: the model sees only these (they must be registered to run).
    const specs = before.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
    step = withTools(config, step, specs);
  }
  if (before?.model) step.model = before.model;
  if (before?.messages) step.messages = before.messages;
  return prepared(ctx, step);
}

/** The step's tools narrowed by an active skill's `allowed-tools`, plus the built-ins offered now. */
function narrowed(ctx: RunContext, step: DraftStep): DraftStep {
  const { config } = ctx;
  const skill = config.skills?.length ? activeSkill(ctx.state.steps, config.skills) : undefined;
  const allowed = skill?.allowedTools && allowedBy(skill, config.tools.registry.specs());
  if (allowed) step = withTools(config, step, allowed);
  const offered = withBuiltins({ ctx, specs: step.specs, all: config.tools.registry.specs() });
  return offered === step.specs ? step : withTools(config, step, [...offered]);
}

/** The prepared step: its model, messages, tools, and the request's `tools` field for its protocol. */
function prepared({ config }: RunContext, { model, messages, specs }: DraftStep): PreparedStep {
  const prompt = specs === config.prompt.tools ? config.prompt : { ...config.prompt, tools: specs };
  return { model, messages, specs, tools: config.protocol.requestTools(prompt), chars: undefined };
}

/** What `beforeStep` and `afterStep` see of a step. */
export function stepState(
  { state, config }: RunContext,
  index: number,
  step: Pick<PreparedStep, 'model' | 'messages'>,
): StepState {
  const { runId, input, steps } = state;
  return {
    runId,
    step: index,
    input,
    steps,
    model: step.model,
    tools: config.tools.registry.list(),
    messages: step.messages,
  };
}

/** The step with these tools instead, and the system message that describes them. */
function withTools<S extends { messages: Message[]; specs: ToolSpec[] }>(
  config: LoopConfig,
  step: S,
  specs: ToolSpec[],
): S {
  const system = systemMessage(config, { ...config.prompt, tools: specs });
  return { ...step, specs, messages: [system, ...step.messages.slice(1)] };
}

/**
 * Fits the prompt into the token budget, emitting `context_compact` for each compaction (and
 * `context_summary` when older steps were folded). The window's state goes into the run's state, so
 * checkpoints carry it.
 */
async function fitContext(ctx: RunContext, head: PromptHead, index: number): Promise<Message[]> {
  const { state, emit } = ctx;
  const { edited } = head;
  const offset = edited?.steps ?? 0;
  const steps = offset ? state.steps.slice(offset) : state.steps;
  const clear = (i: number) => {
    const cleared = clearedStep(steps[i]);
    return { messages: ctx.project(cleared), callIds: cleared.toolCalls.map((r) => r.id) };
  };
  // A fork's edited messages are kept whole, as the system prompt and question are.
  const parts = edited
    ? { head: edited.messages, groups: steps.map(ctx.project) }
    : { head: [head.system, head.question], history: head.history, groups: steps.map(ctx.project) };
  const fit = await ctx.config.context!.fit({ ...parts, state: state.context, clear }, ctx.signal);
  state.context = fit.state;
  for (const c of fit.compactions ?? []) {
    state.stats.compactions += 1;
    const fields = { step: index, kind: c.kind, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter };
    emit(event(state, 'context_compact', { ...fields, callIds: c.callIds }));
  }
  if (fit.summary) {
    const { text, droppedGroups } = fit.summary;
    emit(event(state, 'context_summary', { step: index, summary: text, droppedSteps: droppedGroups }));
  }
  if (fit.warning) emit(event(state, 'warning', { step: index, code: 'context', message: fit.warning }));
  return fit.messages;
}

/**
 * With many tools: this step's subset, picked from the question and the latest thought and observation,
 * plus every tool an earlier `search_tools` call found (`tools_select`).
 */
async function routeTools(ctx: RunContext, router: ToolRouter, index: number): Promise<ToolSpec[]> {
  const { state, config, emit } = ctx;
  const all = config.tools.registry.specs();
  const last = state.steps.at(-1);
  const query = [state.input, last?.thought ?? '', (last?.observation ?? '').slice(0, 500)].join(' ');
  const chosen = await router.route(query, all, ctx.signal);
  const search = (q: string) => router.search(q, all, SEARCH_LIMIT).map((t) => t.name);
  const names = new Set(chosen.map((t) => t.name));
  const found = foundTools(state.steps, search).filter((name) => !names.has(name));
  const picked = [...chosen, ...found.flatMap((name) => all.find((t) => t.name === name) ?? [])];
  emit(event(state, 'tools_select', { step: index, tools: picked.map((t) => t.name), from: all.length }));
  return picked;
}
