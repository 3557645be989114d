import { Agent, type RunOptions } from '../agent/index.js';
import type { AgentEvent, ApprovalAnswer, Message, RunResult, StepJournal } from '../core/index.js';
import {
  type AnyTool,
  type NestedCalls,
  type NestedToolSource,
  type ToolContext,
  ToolRegistry,
} from '../tools/index.js';

/** A person's answer the run waits for, as an engine hands it to whoever resolves it. */
export interface PendingAnswer {
  runId: string;
  callId: string;
  tool: string;
  kind: 'approval' | 'question';
  /** The engine's id for the wait (a Restate awakeable id, a DBOS topic): resolve the wait with it. */
  answerId: string;
  question?: string;
  input?: unknown;
}

/** What an engine's agent (`dbosAgent`, `restateAgent`) takes besides the agent, whichever the engine. */
export interface JournaledAgentOptions {
  /**
   * The name the engine knows the agent by (DBOS: its workflow and queue; Restate: its service).
   * Default: the agent's name, else `agent`.
   */
  name?: string;
  /** Each event as it happens. A replay after a restart sends the events of its replayed part again. */
  onEvent?: (event: AgentEvent) => void;
  /** Each approval or question the run waits for, with the id that resolves it (its `answerId`). */
  onPending?: (pending: PendingAnswer) => void;
  /**
   * Tools that call tools (code mode's `run_code`): their calls are the steps, not the tool itself.
   * Default `['run_code']`.
   */
  nestedTools?: readonly string[];
}

/** How a run on a durable engine reaches the world: its events and its questions. */
export interface JournaledRunOptions extends Omit<JournaledAgentOptions, 'name'> {
  runId: string;
  signal?: AbortSignal;
  /** The thread's earlier turns. */
  history?: Message[];
}

const NESTED_TOOLS = ['run_code'];
// Tools whose run only waits for a person (through ctx.ask or ctx.approve, journaled as answers): a
// step around them would wait inside a step, which no engine allows.
const PERSON_TOOLS = new Set(['ask_user']);

/**
 * Runs `agent` once with every model call and tool call journaled as a step of `journal`, and its
 * approvals and `ask_user` questions as the journal's durable waits. The loop journals its model calls
 * itself (`RunOptions.journal`); the tools are wrapped here, at the edge, for this run.
 */
export function runJournaled(agent: Agent, input: string, journal: StepJournal, options: JournaledRunOptions) {
  const nestedTools = new Set(options.nestedTools ?? NESTED_TOOLS);
  const wrap = (tool: AnyTool) => {
    if (PERSON_TOOLS.has(tool.name)) return tool;
    return nestedTools.has(tool.name) ? composite(tool, journal) : journaledTool(tool, journal);
  };
  // The loop journals each model call itself (RunOptions.journal); the tools are wrapped here.
  const variant = new Agent({ ...agent.options, tools: [] });
  // The tools the copy adds itself (handoffs, codeAct()'s run_code), then the agent's as they are
  // now (registered after it was made included, disabled ones left out), each journaled.
  for (const tool of [...variant.tools.all(), ...agent.tools.list()]) {
    variant.tools.register(wrap(tool), { replace: true });
  }
  const ask = (kind: PendingAnswer['kind'], base: Omit<PendingAnswer, 'kind' | 'answerId' | 'runId'>) =>
    journal.answer<ApprovalAnswer | string>(`${kind}:${base.callId}`, (answerId) =>
      options.onPending?.({ ...base, kind, answerId, runId: options.runId }),
    );
  const run: RunOptions = {
    runId: options.runId,
    signal: options.signal,
    journal,
    history: options.history,
    onEvent: options.onEvent,
    approve: async (request) => {
      const callId = request.callId ?? '';
      const answer = await ask('approval', {
        callId,
        tool: request.tool,
        input: request.input,
        question: request.question,
      });
      return typeof answer === 'object' && answer !== null && answer.approved === true;
    },
    ask: async (question, call) => String(await ask('question', { callId: call.callId, tool: call.tool, question })),
  };
  return variant.run(input, run) as Promise<RunResult>;
}

/**
 * The tool with each run a `tool` step: validation, approval and retries stay outside, in the executor.
 * An engine runs a step again when its process died during it; for a tool that is not idempotent that
 * would repeat a side effect that may have happened, so such a call first records a `:start` step, and
 * a replay that finds the start recorded but not the end answers as the built-in engine does: the call
 * was interrupted and is not run again.
 */
export function journaledTool(tool: AnyTool, journal: StepJournal): AnyTool {
  const name = tool.name;
  return withRun(tool, async (input, ctx) => {
    const run = async () => toJson(await tool.run(input, ctx));
    if (tool.idempotent) return journal.step({ kind: 'tool', name, input }, run);
    let startedHere = false;
    await journal.step({ kind: 'tool', name: `${name}:start` }, async () => {
      startedHere = true;
      return null;
    });
    return journal.step({ kind: 'tool', name, input }, () => (startedHere ? run() : Promise.reject(interrupted(name))));
  });
}

function interrupted(name: string): Error {
  return new Error(
    `The call to ${name} was interrupted by a restart and was not run again (the tool is not idempotent). Check its effect before calling it again.`,
  );
}

/**
 * A tool that calls tools (code mode): not a step itself, since an engine cannot nest steps. It runs
 * again on replay with the journal's seed and clock, and each call it makes is a step of its tool.
 */
function composite(tool: AnyTool, journal: StepJournal): AnyTool {
  const wrapped = new WeakMap<object, ToolRegistry>();
  const journaledRegistry = (registry: NestedToolSource | undefined) => {
    if (!(registry instanceof ToolRegistry)) return registry;
    let copy = wrapped.get(registry);
    if (!copy) {
      copy = new ToolRegistry(registry.all().map((t) => journaledTool(t, journal)));
      wrapped.set(registry, copy);
    }
    return copy;
  };
  return withRun(tool, async (input, ctx) => {
    if (!ctx.nested) return tool.run(input, ctx);
    const seed = await journal.seed();
    const clock = await journal.now();
    const inner = ctx.nested;
    const nested: NestedCalls = {
      registry: inner.registry,
      recorded: { seed, clock, calls: [] },
      save: () => Promise.resolve(),
      run: (call, registry, hooks) => inner.run(call, journaledRegistry(registry), hooks),
      end: (answer) => inner.end(answer),
      fail: (error) => inner.fail(error),
    };
    return tool.run(input, { ...ctx, nested } satisfies ToolContext);
  });
}

function withRun(tool: AnyTool, run: AnyTool['run']): AnyTool {
  return Object.assign(Object.create(Object.getPrototypeOf(tool)), tool, { run });
}

/** A tool's value as the journal stores it: JSON (a Date as its string, undefined as null). */
function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
}
