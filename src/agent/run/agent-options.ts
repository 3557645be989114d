import type { z } from 'zod';
import type {
  AgentEvent,
  ContentPart,
  ForkedFrom,
  Message,
  ReadToolCall,
  RunResult,
  RunStats,
  RunUsage,
  Step,
  StepJournal,
  ToolCallRecord,
} from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { CompactionOptions, ContextState, MemoryKind, MemoryStore, SessionStore } from '../../memory/index.js';
import type { FewShotExample, Language, Protocol, ProtocolName } from '../../protocols/index.js';
import type { SkillsOption } from '../../skills/index.js';
import type { AnyTool, ApprovalRequest, NestedJournal } from '../../tools/index.js';
import type { Workspace, WorkspaceToolsOptions } from '../../workspace/index.js';
import type { Guardrails } from '../guardrails/index.js';
import type { Budget, StopCondition } from '../guards/index.js';
import type { ToolRouter, ToolRoutingOptions } from '../routing/index.js';
import type { EditedPrompt } from './build-messages.js';

export type { Budget } from '../guards/index.js';

/** What `beforeStep` sees, and may change for the next step. */
export interface StepState {
  runId: string;
  step: number;
  input: string;
  steps: readonly Step[];
  model: Model;
  tools: readonly AnyTool[];
  /** The messages about to be sent (after the context budget was applied). */
  messages: Message[];
}

/** What `beforeStep` may return: a different model, tool set or message list for this step only. */
export interface StepOverrides {
  model?: Model;
  tools?: AnyTool[];
  messages?: Message[];
}

/** A protocol object for `new Agent({ protocol })`, with the tools the agent registers for it (`codeAct()` brings `run_code`). */
export interface AgentProtocol extends Protocol {
  readonly tools?: readonly AnyTool[];
}

/** Options for `new Agent()`. */
export interface AgentOptions<T = unknown> {
  /** Shown in events and traces; required for `asTool` and the server. */
  name?: string;
  model: Model;
  tools?: AnyTool[];
  /**
   * `auto` picks native when the model supports tool calling, else json. Default `auto`. A protocol object
   * may bring tools of its own: `codeAct()` from `thinkflow/code` (every reply a program) brings `run_code`.
   * `'code'` is `codeAct()` too, loaded on the first run (Node, Bun, Deno; in a browser bundle pass `codeAct()`).
   */
  protocol?: 'auto' | ProtocolName | AgentProtocol;
  instructions?: string;
  /**
   * Files and a shell for the agent (`virtualWorkspace`, `sandboxWorkspace` from `thinkflow/workspace`):
   * adds the workspace tools (`bash`, `read_file`, `write_file`, `edit_file`, `glob`, `grep`, `ls`) and a
   * short block of instructions on working there.
   */
  workspace?: Workspace;
  /** Which commands the workspace's `bash` runs, asks about or refuses. */
  workspacePolicy?: WorkspaceToolsOptions['policy'];
  /** Default 10 (or the lowest `maxSteps(n)` in `stopWhen`). */
  maxSteps?: number;
  /**
   * Stop conditions checked after each step, first match wins: `maxSteps(n)`, `calledTool(name)` (ends `done`
   * with the tool's result as the answer), `tokensOver(n)`, `durationOver(ms)`, `costOver(usd)`, or your own
   * `(state) => StopReason | undefined`. The options `maxSteps` and `budget` keep working beside them.
   */
  stopWhen?: StopCondition | StopCondition[];
  /** Prompt language for the json and react protocols. Default `en`. */
  language?: Language;
  /** Validates the final answer; `result.object` holds the parsed value. */
  outputSchema?: z.ZodType<T>;
  /** Invalid replies in a row before the run ends `failed`. Default 3. */
  maxInvalidReplies?: number;
  /** At maxSteps, one last model call with no tools asks for the best answer. Default true. */
  finalAnswerOnMaxSteps?: boolean;
  budget?: Budget;
  /** Identical observations this many steps in a row: a warning, then a stop one step later. Default 3. */
  sameObservationLimit?: number;
  /**
   * How alike two observations in a row must be to count as the same (character-bigram similarity
   * after normalising case, width, spaces and punctuation; works for Chinese too), 0–1. Default 0.8;
   * 1 counts identical observations only. Observations that differ only in their numbers are progress.
   */
  sameObservationThreshold?: number;
  /** Calls run at once within a step. Default 8. */
  toolConcurrency?: number;
  /** A tool failing this many times in a run is disabled. Default 3. */
  maxToolFailures?: number;
  /**
   * Characters per observation before it is cut to head + tail. Default 4000; with compaction on and a
   * budget, the low-water share of the budget (about 4 characters a token), since clearing keeps the window in budget.
   */
  observationLimit?: number;
  /** Decides `needsApproval` calls. Without it they are denied. */
  approve?: (request: ApprovalRequest) => Promise<boolean> | boolean;
  /** Use the model's stream and emit `model_delta` events. Default true when the model streams. */
  streaming?: boolean;
  /** Writes every event as one JSON line to this file. */
  traceFile?: string;
  /** Where `RunOptions.sessionId` conversations are loaded from and appended to (e.g. `new SqliteSessionStore()`). */
  sessions?: SessionStore;
  /** The working context: a token budget per call (default from the model's context window), summaries of dropped steps. */
  context?: ContextOptions;
  /** Long-term memory: the top-k memories for the question go into the prompt; finished runs are stored as episodes. */
  memory?: MemoryOptions;
  /** Input, output and tool-call checks that can block or rewrite. */
  guardrails?: Guardrails;
  /** Every K steps, ask the model for a short progress summary and next focus, and put it into the context. */
  reflectEvery?: number;
  /**
   * With many tools, each step sees only the most relevant ones, and `search_tools` finds the rest: a router
   * from `createToolRouter({ topK, minTools, ... })` (`thinkflow/tools`), which routes above `minTools` (20)
   * tools. Its options object, or nothing above 20 tools (on by default), has the agent load the router on the
   * first run (Node, Bun, Deno; a browser bundle without it: no routing by default, and a `warning`); `false` turns it off.
   */
  toolRouting?: ToolRouter | ToolRoutingOptions | false;
  /**
   * Agent Skills: loaded skills (`loadSkills` from `thinkflow/skills`), or folders to load them from on the
   * first run (Node), or a function that finds them on the first run (`workspaceSkills(ws)`). Their catalogue
   * goes into the system prompt; `load_skill` and `read_skill_file` read them.
   */
  skills?: SkillsOption;
  /** Tokens the skills catalogue may take in the system prompt; beyond it skills are found with `search_skills`. Default 2,000. */
  skillCatalogTokens?: number;
  /** A cheaper model for simple work: summaries of dropped steps and reflections. The main model still reasons. */
  models?: { cheap?: Model };
  /**
   * Sampling temperature sent with every model call (each provider's own field). Unset: the provider's
   * default. Low values (0–0.2) make replies repeatable, which helps an agent keep its reply format.
   */
  temperature?: number;
  /** Nucleus sampling (`top_p`, Gemini `topP`, Ollama `top_p`) sent with every model call. Unset: the provider's default. */
  topP?: number;
  /**
   * Few-shot examples in the system prompt, each rendered in the protocol's own format (ReAct lines,
   * JSON objects, or a transcript of native calls): a worked question with its tool calls and answer,
   * or a string inserted as written.
   */
  examples?: FewShotExample[];
  /** Agents this one can pass the conversation to (a `transfer_to_<name>` tool each). */
  handoffs?: Handoff[];
  beforeStep?: (state: StepState) => StepOverrides | undefined | Promise<StepOverrides | undefined>;
  afterStep?: (step: Step, state: StepState) => void | Promise<void>;
}

/** Options for one run. */
export interface RunOptions {
  signal?: AbortSignal;
  /** A subscriber to every event; a throwing subscriber never breaks the run. */
  onEvent?: (event: AgentEvent) => void;
  /** Earlier conversation turns placed before the input. */
  history?: Message[];
  /**
   * Images and files sent with the input, after its text (e.g. `{ type: 'image', data, mediaType: 'image/png' }`).
   * A model that reads no images gets a note in their place, and the run a `media_unsupported` warning.
   */
  attachments?: Exclude<ContentPart, { type: 'text' }>[];
  runId?: string;
  /** Loads and appends this conversation's history (needs the agent's `sessions` store). */
  sessionId?: string;
  /** Nests this run's events under a caller's run. */
  parentRunId?: string;
  /** Overrides the agent's budget for this run (a child never exceeds its parent's remaining budget). */
  budget?: Budget;
  /** Continue a checkpointed run: its finished steps go back into the context, not re-run. */
  resume?: Checkpoint;
  /**
   * Called, and awaited, with the run's state before every model call and again after a reply is
   * read but before its tools run (`pending` set), so a durable store can resume after a crash.
   */
  onCheckpoint?: (checkpoint: Checkpoint) => void | Promise<void>;
  /** Decides this run's `needsApproval` calls instead of the agent's `approve` (the server pauses the run here). */
  approve?: (request: ApprovalRequest) => Promise<boolean> | boolean;
  /** Answers `ctx.ask(question)` for this run's tools (`ask_user`); without it `ctx.ask` is undefined. */
  ask?: (question: string, call: { callId: string; tool: string }) => Promise<string>;
  /**
   * Tools for this run only, beside the agent's own (a server adds a caller's client-side tools here).
   * A name the agent already uses is a ConfigError.
   */
  tools?: AnyTool[];
  /** The shape this run's final answer must have, instead of the agent's `outputSchema`. */
  outputSchema?: z.ZodType;
  /**
   * The step journal of a durable engine (Restate, DBOS: see `thinkflow/engines`): each model call is
   * one of its steps, replayed from it after a restart. Without it the built-in checkpoints apply.
   */
  journal?: StepJournal;
}

/**
 * What `agent.prompt()` and `agent.firstRequest()` take: the run options that change the first request
 * (earlier turns or a session, attachments, run-only tools, an output schema), and a signal for the
 * memory recall and routing they do.
 */
export type PromptOptions = Pick<
  RunOptions,
  'history' | 'sessionId' | 'attachments' | 'tools' | 'outputSchema' | 'signal'
>;

/**
 * A run's durable state. On resume, finished steps are replayed into the context; pending calls that
 * ended are kept (never run again), calls that were waiting (not started) and idempotent ones that did
 * not end run again, and the model is told the others were interrupted.
 */
export interface Checkpoint {
  runId: string;
  input: string;
  steps: Step[];
  usage: RunUsage;
  stats: RunStats;
  /**
   * A step whose reply was read but whose tools had not all finished: `done` holds the calls that
   * ended, `waiting` the ids of calls that were waiting for approval or a free slot (they had not started).
   */
  pending?: {
    index: number;
    raw: string;
    thought?: string;
    calls: ReadToolCall[];
    done: ToolCallRecord[];
    waiting?: string[];
    /** What tools that call tools (code mode) recorded of their nested calls, by the calling call's id. */
    nested?: Record<string, NestedJournal>;
  };
  /** The run's final answer, once it was reached: a resumed run ends with it and calls no model. */
  final?: { answer: string; object?: unknown };
  /** Set on a fork's checkpoints (`agent.fork`): the run and step it came from. */
  forkedFrom?: ForkedFrom;
  /** A fork's edited messages: they stand for the prompt up to step `edited.steps` (system, history, question, steps). */
  edited?: EditedPrompt;
  /** What the context window had let go of (cleared results, folded steps, the summary), so a resume sends the same prompt. */
  context?: ContextState;
}

/** How the loop keeps each prompt within a token budget. */
export interface ContextOptions {
  /** Prompt tokens per model call. Default: from the model's `contextWindow`; no trimming when unknown. */
  budgetTokens?: number;
  /** Characters per observation in the prompt. Default: the agent's observationLimit. */
  observationLimit?: number;
  /** Replace dropped steps by a summary: `true` uses the agent's model (or `models.cheap`), or give one. Default true. */
  summarize?: boolean | Model;
  /**
   * Compaction past the high-water mark (clear old tool results, then summarize) and `recall_result`.
   * `false` turns all of it off: every call sends the full history.
   */
  compaction?: false | CompactionOptions;
}

/** How the agent uses a long-term MemoryStore. */
export interface MemoryOptions {
  store: MemoryStore;
  /** Memories recalled into the prompt before a run. Default 5; 0 turns recall off. */
  k?: number;
  kinds?: MemoryKind[];
  /** Store an episode after a successful run. Default true. */
  storeEpisodes?: boolean;
  /** Store a lesson (reflection) after a failed run. Default false. */
  storeReflections?: boolean;
}

/** Another agent this one may hand the conversation to. */
export interface Handoff {
  agent: { readonly name?: string; run(input: string, options?: RunOptions): Promise<RunResult> };
  /** Tool name suffix: `transfer_to_<name>`. Default: the agent's name. */
  name?: string;
  /** When to hand off, for the model. */
  description?: string;
}
