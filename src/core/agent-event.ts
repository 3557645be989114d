import type { Message, ToolCall } from './message.js';
import type { ToolSpec, Usage } from './model-types.js';
import type { ReplyHabit } from './parsed-step.js';
import type { RunError, RunStatus, RunUsage } from './run-result.js';

/** Fields every event carries. `parentRunId` nests a child agent's events under its caller's. */
export interface EventBase {
  runId: string;
  parentRunId?: string;
  /** Epoch milliseconds. */
  ts: number;
  /** Step index, for events that belong to a step. */
  step?: number;
}

type E<T extends string, F> = EventBase & { type: T } & F;

/**
 * Every decision the loop makes, as plain JSON. The CLI, the JSONL trace, the HTML report,
 * the server's SSE stream and replay all consume this one stream.
 */
export type AgentEvent =
  | E<
      'run_start',
      {
        input: string;
        agent?: string;
        model: string;
        protocol: string;
        tools: string[];
        /** Set on a fork's run (and its resumes): the run and step it started again from. */
        forkedFrom?: { runId: string; fromStep: number };
      }
    >
  /** An agent's step, or (with `stepId` and `path`) a workflow's step starting. */
  | E<'step_start', { step: number; stepId?: string; path?: string }>
  | E<'model_request', { step: number; model: string; messages: Message[]; tools?: ToolSpec[] }>
  | E<'model_delta', { step: number; text: string }>
  /** A streamed piece of the model's reasoning (thinking), never part of the answer text. */
  | E<'reasoning_delta', { step: number; text: string }>
  | E<
      'model_response',
      {
        step: number;
        text: string;
        toolCalls?: ToolCall[];
        /** The model's reasoning text, when it showed any. */
        reasoning?: string;
        usage?: Usage;
        ms: number;
        modelId?: string;
        cached?: boolean;
      }
    >
  | E<'thought', { step: number; text: string }>
  // `parentCallId`: the call this one was made from (a code-mode program's `run_code` call).
  | E<'tool_start', { step: number; callId: string; tool: string; input: unknown; parentCallId?: string }>
  | E<
      'tool_end',
      {
        step: number;
        callId: string;
        tool: string;
        ms: number;
        ok: boolean;
        output: string;
        error?: string;
        parentCallId?: string;
      }
    >
  /** A running tool reported progress (MCP `notifications/progress`); `total` when known. */
  | E<'tool_progress', { callId: string; tool: string; progress: number; total?: number; message?: string }>
  | E<'observation', { step: number; text: string }>
  | E<'invalid_output', { step: number; reason: string; raw: string }>
  | E<'warning', { step?: number; code: string; message: string; habits?: ReplyHabit[] }>
  | E<'final', { step: number; output: string; object?: unknown }>
  | E<'run_end', { status: RunStatus; output: string; usage: RunUsage; durationMs: number; error?: RunError }>
  // Events from the memory, planning, routing, guardrail, cache and approval layers.
  | E<'context_summary', { step: number; summary: string; droppedSteps: number }>
  /**
   * The context was compacted before a model call: old tool results cleared (`clear`), old steps
   * summarized (`summary`), or the provider compacted it (`provider`); with the prompt's tokens before
   * and after, and the calls whose results were cleared (`recall_result` brings them back).
   */
  | E<
      'context_compact',
      {
        step: number;
        kind: 'clear' | 'summary' | 'provider';
        tokensBefore: number;
        tokensAfter: number;
        callIds: string[];
      }
    >
  | E<'memory_recall', { memories: { id: string; kind: string; text: string; score?: number }[] }>
  | E<'memory_store', { id: string; kind: string; text: string }>
  | E<'plan_create', { plan: string[] }>
  | E<'plan_update', { plan: string[]; reason?: string }>
  | E<'tools_select', { step: number; tools: string[]; from: number }>
  /** The model searched the tools routing left out (`search_tools`); `tools` are sent from the next step on. */
  | E<'tools_search', { step: number; query: string; tools: string[] }>
  /** A skill's instructions were loaded (`load_skill`); while it is active its `allowed-tools` narrow the tools offered. */
  | E<'skill_activate', { step: number; skill: string; allowedTools?: string[] }>
  | E<
      'guardrail_trip',
      { guardrail: string; stage: 'input' | 'output' | 'tool_call'; action: 'block' | 'rewrite'; reason: string }
    >
  | E<'cache_hit', { step: number; key: string }>
  /**
   * A person is asked: to approve a call (`approval`), or to answer a tool's free-form question (`question`, `ask_user`).
   * Under a durable engine `answerId` is the engine's id for the wait (a Restate awakeable, a DBOS topic) that
   * resolves it; a run that replays after a restart announces its wait again (resolvers dedupe by id).
   */
  | E<
      'approval_request',
      {
        step: number;
        callId: string;
        tool: string;
        input: unknown;
        question?: string;
        kind?: 'approval' | 'question';
        answerId?: string;
      }
    >
  | E<'approval_response', { step: number; callId: string; approved: boolean; answer?: string }>
  | E<'reflection', { step: number; text: string }>
  | E<'handoff', { step: number; from?: string; to: string; reason?: string }>
  // Events of a workspace (`thinkflow/workspace`): the files a call changed, each command, the plan.
  /**
   * A workspace tool's call changed files (or a rewind put them back): `snapshot` holds the files after it,
   * `from` the snapshot they changed from, `files` what changed and `diff` a short text diff. A virtual
   * workspace's `payload` carries the changed files themselves, so a new process can rebuild them from
   * the log. `base` marks the files before the run's first change; `rewound` a rewind to that step.
   */
  | E<
      'workspace_change',
      {
        callId?: string;
        tool?: string;
        workspace: 'virtual' | 'sandbox';
        snapshot: string;
        from?: string;
        files: { added: string[]; modified: string[]; removed: string[] };
        diff: string;
        payload?: WorkspacePayload;
        base?: true;
        rewound?: { step: number };
      }
    >
  /** A workspace `bash` command ended: its exit code and output (cut at the workspace's limit). */
  | E<
      'command_end',
      {
        callId: string;
        command: string;
        exitCode: number;
        stdout: string;
        stderr: string;
        ms: number;
        limit?: string;
      }
    >
  /** The `todos` tool's plan, whole, as the model last wrote it. */
  | E<'todos_update', { callId: string; todos: { content: string; status: 'pending' | 'in_progress' | 'done' }[] }>
  // Events of workflows: their runs carry a workflow run id, the agents inside nest under it.
  | E<'workflow_start', { workflow: string; input: unknown; definitionHash: string; resumed?: boolean }>
  | E<
      'step_end',
      { step: number; stepId: string; path: string; ms: number; ok: boolean; output?: unknown; error?: string }
    >
  | E<'step_suspended', { step: number; stepId: string; path: string; payload?: unknown; event?: string }>
  | E<
      'workflow_end',
      {
        workflow: string;
        status: 'done' | 'suspended' | 'failed' | 'cancelled';
        output?: unknown;
        usage: RunUsage;
        durationMs: number;
        error?: RunError;
      }
    >;

export type AgentEventType = AgentEvent['type'];

/**
 * The files one change of a virtual workspace wrote (text, or base64 for the paths in `binary`) and
 * removed, relative to the snapshot it changed from.
 */
export interface WorkspacePayload {
  write: Record<string, string>;
  binary?: string[];
  remove: string[];
}

/** Narrow an event union member by its `type`. */
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
