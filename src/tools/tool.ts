import { z } from 'zod';
import type { AgentEvent, JsonSchema, RunUsage } from '../core/index.js';
import type { Model } from '../llm/index.js';
import type { NestedCalls } from './nested-calls.js';
import type { ElicitRequest, ElicitResult, LogLevel, SampleRequest, SampleResult } from './tool-peer.js';

/** Minimal structured logger handed to tools. */
export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/** A question put to a person before or during a tool call. */
export interface ApprovalRequest {
  tool: string;
  input: unknown;
  question?: string;
  /** The call that asks (set by the executor), so an answer can be matched to its tool call. */
  callId?: string;
}

/** What a running tool can use: its abort signal, the run it belongs to, a logger and an approval hook. */
export interface ToolContext {
  signal: AbortSignal;
  runId: string;
  callId: string;
  logger: Logger;
  /** Asks a person; resolves true when approved. Denies when no approver is configured. */
  approve(request: ApprovalRequest): Promise<boolean>;
  /**
   * Asks a person a free-form question and resolves with their answer (the `ask_user` tool uses it).
   * Absent when nobody can answer (no `ask` in the run options).
   */
  ask?(question: string): Promise<string>;
  /** The run that called this tool, so an agent used as a tool can nest its events and share the budget. */
  parent?: ParentRun;
  /**
   * Reports progress to the caller (`total` when known). Present when the caller is an MCP client;
   * a no-op when that client did not ask for progress. Absent in an agent run.
   */
  progress?(progress: number, total?: number, message?: string): Promise<void>;
  /** Logs a message to the caller (MCP `notifications/message`, at or above the level it set). Present when the caller is an MCP client. */
  log?(level: LogLevel, message: string): Promise<void>;
  /** Asks the caller's model for a reply. Present only when the caller is an MCP client that declared `sampling`. */
  sample?(request: SampleRequest): Promise<SampleResult>;
  /** Asks the person behind the caller for input. Present only when the caller is an MCP client that declared `elicitation`. */
  elicit?(request: ElicitRequest): Promise<ElicitResult>;
  /** Calls other tools through the run's pipeline, nested under this call (code mode). Present in an agent run. */
  readonly nested?: NestedCalls;
}

/** Hints about a tool's behaviour, shown to MCP clients (they are hints, not guarantees). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a calling run shares with a child agent run as a tool. */
export interface ParentRun {
  runId: string;
  /** Sends a child's events into the parent's stream (each carries the parent's run id). */
  emit(event: AgentEvent): void;
  /** What is left of the parent's budget now; a child never exceeds it. */
  remainingBudget(): { maxTotalTokens?: number; maxDurationMs?: number } | undefined;
  /** Adds a child's token use to the parent's totals. */
  addUsage(usage: RunUsage): void;
  /** The calling run's model, for tools that need one of their own (MCP sampling defaults to it). */
  model?: Model;
}

/** One problem with a tool's input, precise enough for the model to fix it. */
export interface ToolInputIssue {
  /** Dotted path of the bad field (`''` for the whole input). */
  path: string;
  message: string;
  /** What was expected there, when known (e.g. `number`). */
  expected?: string;
}

export type ToolInputResult<I> = { ok: true; value: I } | { ok: false; issues: ToolInputIssue[] };

/** A tool the agent can call. Build one with `defineTool` (zod) or `jsonSchemaTool` (plain JSON Schema). */
export interface Tool<I = unknown, O = unknown> {
  readonly name: string;
  /** A human-readable name for UIs (MCP `title`); `name` is what models call. */
  readonly title?: string;
  readonly description: string;
  /** Behaviour hints listed to MCP clients. */
  readonly annotations?: ToolAnnotations;
  /** JSON Schema of the input, generated once from the zod schema. Providers and prompts use this. */
  readonly parameters: JsonSchema;
  /** The `$schema` dialect of `parameters` when its author named one (MCP lists it); 2020-12 otherwise. */
  readonly schemaDialect?: string;
  /** Validates (and coerces) an input object. */
  parse(input: unknown): ToolInputResult<I>;
  run(input: I, ctx: ToolContext): O | Promise<O>;
  readonly timeoutMs?: number;
  /** Extra attempts for `RetryableToolError`s and network errors. */
  readonly retries?: number;
  readonly needsApproval?: boolean | ((input: I) => boolean | Promise<boolean>);
  readonly examples?: I[];
  /** Never run at the same time as another call. */
  readonly sequential?: boolean;
  /** Safe to run twice with the same input (durable runs retry an interrupted call only then). */
  readonly idempotent?: boolean;
  /** JSON Schema of the output, from `defineTool`'s `output` (code mode declares it; outputs are checked against it). */
  readonly outputParameters?: JsonSchema;
  /** False hides the tool from code mode's programs (for example one that needs a person each time). Default true. */
  readonly callableFromCode?: boolean;
  /**
   * The tool only waits for a person (`ask_user`) or calls other tools (code mode's `run_code`): under a
   * durable engine's journal it is not one step but runs again on replay, its waits and calls each
   * journaled. Default false: the tool's run is one step, recorded once and never run again.
   */
  readonly replays?: boolean;
  /** Characters of output before head + tail truncation, instead of the executor's `observationLimit` (`Infinity`: never cut). */
  readonly outputLimit?: number;
}

/** A tool of any input type, as held by registries. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input type; `unknown` would reject them (contravariance).
export type AnyTool = Tool<any, unknown>;

export interface DefineToolOptions<S extends z.ZodType, O> {
  name: string;
  title?: string;
  description: string;
  annotations?: ToolAnnotations;
  input: S;
  run(input: z.infer<S>, ctx: ToolContext): O | Promise<O>;
  timeoutMs?: number;
  retries?: number;
  needsApproval?: boolean | ((input: z.infer<S>) => boolean | Promise<boolean>);
  examples?: z.infer<S>[];
  sequential?: boolean;
  idempotent?: boolean;
  /** The output's schema: declared to code mode, and checked at run time (an output that fails it is the call's error). */
  output?: z.ZodType<O>;
  /** False hides the tool from code mode's programs. Default true. */
  callableFromCode?: boolean;
  outputLimit?: number;
  /** The tool only waits for a person or calls other tools: under a journal it replays, not one step. */
  replays?: boolean;
}

// What MCP allows: letters and digits of any script, `_ - . /`, up to 128. Text protocols carry the name
// as written; providers send names their API refuses under aliases and map them back (core/wire-tool-name.ts).
const TOOL_NAME = /^[\p{L}\p{M}\p{N}_\-./]{1,128}$/u;

/**
 * Defines a tool from a zod schema. The JSON Schema that providers and prompts see is generated
 * from the schema once, field descriptions included.
 *
 * @example
 * const weather = defineTool({
 *   name: 'weather',
 *   description: 'Current weather for a city.',
 *   input: z.object({ city: z.string().describe('City name, e.g. Paris') }),
 *   run: async ({ city }) => ({ city, tempC: 21 }),
 * });
 */
export function defineTool<S extends z.ZodType, O>(options: DefineToolOptions<S, O>): Tool<z.infer<S>, O> {
  if (!TOOL_NAME.test(options.name)) {
    throw new TypeError(
      `Tool name "${options.name}" must be 1-128 letters (any script), digits, "_", "-", "." or "/", e.g. "search", "搜索" or "github.create_issue".`,
    );
  }
  const parameters = toParameters(options.input);
  return {
    name: options.name,
    title: options.title,
    description: options.description,
    annotations: options.annotations,
    parameters,
    parse(input: unknown) {
      const result = options.input.safeParse(input);
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, issues: zodIssues(result.error) };
    },
    run: options.output ? checkedRun(options.name, options.run, options.output) : options.run,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    needsApproval: options.needsApproval,
    examples: options.examples,
    sequential: options.sequential,
    idempotent: options.idempotent,
    outputParameters: options.output ? toParameters(options.output, 'output') : undefined,
    callableFromCode: options.callableFromCode,
    outputLimit: options.outputLimit,
    replays: options.replays,
  };
}

/** A tool's run whose output must match its `output` schema; one that does not is the call's error. */
function checkedRun<I, O>(
  name: string,
  run: (input: I, ctx: ToolContext) => O | Promise<O>,
  schema: z.ZodType<O>,
): (input: I, ctx: ToolContext) => Promise<O> {
  return async (input, ctx) => {
    const result = schema.safeParse(await run(input, ctx));
    if (result.success) return result.data;
    const issues = zodIssues(result.error).map((i) => `${i.path || '(root)'}: ${i.message}`);
    throw new Error(`Tool ${name} returned an output that does not match its output schema: ${issues.join('; ')}`);
  };
}

/**
 * The JSON Schema of a zod schema, made once per schema object and direction: a tool defined anew for
 * each run (a built-in that closes over the run's state) reuses its module's schema, and converting it
 * costs more than the rest of a step.
 */
function toParameters(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const made = PARAMETERS[io].get(schema);
  if (made) return made;
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  PARAMETERS[io].set(schema, rest);
  return rest;
}
const PARAMETERS = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

function zodIssues(error: z.ZodError): ToolInputIssue[] {
  return error.issues.map((issue) => {
    const expected = 'expected' in issue && typeof issue.expected === 'string' ? issue.expected : undefined;
    return { path: issue.path.map(String).join('.'), message: issue.message, expected };
  });
}
