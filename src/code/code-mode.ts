import { z } from 'zod';
import { ThinkflowError } from '../core/index.js';
import { toolDeclarations } from '../protocols/index.js';
import {
  type AnyTool,
  createToolExecutor,
  defineTool,
  type NestedCalls,
  type NestedJournal,
  type Tool,
  type ToolContext,
  ToolRegistry,
  toJsonValue,
} from '../tools/index.js';
import { assertQuickJsLoads } from './load-quickjs.js';
import { quickJsSandbox } from './quickjs-sandbox.js';
import { replayingCaller } from './replay-calls.js';
import { type ProgramResult, runProgram } from './run-program.js';
import { type CodeBudgets, DEFAULT_BUDGETS, type Sandbox } from './sandbox.js';
import { stripTypes } from './strip-types.js';

/** Options of `codeMode`: the budgets of each program, the tool's name and the sandbox. */
export interface CodeModeOptions extends Partial<CodeBudgets> {
  /** The tool's name. Default `run_code`. */
  name?: string;
  /**
   * Where programs run. Default: QuickJS in WebAssembly (`quickjs-emscripten`), loaded by itself on Node,
   * Bun and Deno; in a browser or a Worker pass `quickJsSandbox({ module })` (docs/code-mode.md#runtimes).
   */
  sandbox?: Sandbox;
}

/** What `codeAct()` adds: the run's own tools and `final_answer`. */
export interface CodeToolOptions extends CodeModeOptions {
  /** The tools programs may call; the run's own when absent. */
  tools?: readonly AnyTool[];
  /** Programs may end the run with `final_answer(value)`. */
  finalAnswer?: boolean;
}

const CodeInput = z.object({
  code: z
    .string()
    .min(1)
    .describe('The body of an async JavaScript function: await tools.<name>(input), console.log, return a value.'),
});

/**
 * One tool, `run_code`, that runs a JavaScript program calling `tools`: the model writes the body
 * of an async function that awaits `tools.x(input)`, may `console.log`, and returns a value; the
 * observation is what it returned and logged. The program runs in a sandbox with nothing of the host
 * in reach, and every call it makes goes through the run's executor (validation, approvals,
 * timeouts, retries, events nested under the `run_code` call, durable replay after a restart).
 *
 * @example
 * const agent = new Agent({ model, tools: [codeMode([price, convert], { maxToolCalls: 50 })] });
 */
export function codeMode(tools: readonly AnyTool[], options: CodeModeOptions = {}): Tool<{ code: string }, string> {
  return codeTool({ ...options, tools });
}

/** The `run_code` tool for `codeMode` and for `codeAct()` (the run's tools, `final_answer`). */
export function codeTool(options: CodeToolOptions): Tool<{ code: string }, string> {
  const name = options.name ?? 'run_code';
  const budgets: CodeBudgets = { ...DEFAULT_BUDGETS, ...definedBudgets(options) };
  // A missing sandbox package, or a runtime that cannot load it by itself, fails here, at setup, with
  // what to do, not in the middle of a run.
  if (!options.sandbox) assertQuickJsLoads();
  const sandbox = options.sandbox ?? quickJsSandbox();
  const own = options.tools ? new ToolRegistry(options.tools.filter((t) => t.callableFromCode !== false)) : undefined;
  const description = own
    ? `${DESCRIPTION}\n\n\`\`\`ts\n${toolDeclarations(own.specs())}\n\`\`\``
    : 'Runs the JavaScript program of this step (see the system prompt).';
  return defineTool({
    name,
    description,
    input: CodeInput,
    // The program keeps its own time budget, paused while a call waits for a person.
    timeoutMs: 0,
    retries: 0,
    // Safe to run again after a restart: calls that ended are answered from the journal, never run twice.
    idempotent: true,
    callableFromCode: false,
    // Under a durable engine the program is not a step: each call it makes is one.
    replays: true,
    async run({ code }, ctx) {
      const nested = ctx.nested ?? localNestedCalls(ctx, own);
      const registry = own ?? nested.registry;
      const names = registry
        .list()
        .filter((t) => t.callableFromCode !== false && t.name !== name)
        .map((t) => t.name);
      const recorded = nested.recorded;
      // Under a durable engine the seed and clock come from its journal, the same on every replay.
      const drawn = recorded ?? (await nested.draw?.());
      const journal: NestedJournal = {
        seed: drawn?.seed ?? newSeed(),
        clock: drawn?.clock ?? Date.now(),
        calls: [],
      };
      // Written before the program starts, so a replay after a crash draws the same numbers and times.
      await nested.save(journal);
      const run = (source: string) =>
        runProgram({
          code: source,
          sandbox,
          budgets,
          tools: names,
          call: replayingCaller({ nested, registry: own, callId: ctx.callId, recorded, journal }),
          seed: journal.seed,
          clock: journal.clock,
          finalAnswer: options.finalAnswer,
          signal: ctx.signal,
        });
      let result = await run(code);
      if (result.errorKind === 'syntax') {
        const stripped = await stripTypes(code);
        if (stripped !== undefined && stripped.trim() !== code.trim()) result = await run(stripped);
      }
      if (result.errorKind === 'diverged') {
        nested.fail(new ThinkflowError({ code: 'replay_diverged', message: result.error ?? 'The replay diverged.' }));
      }
      if (result.ok && result.final) nested.end(answerText(result.final.json));
      return observation(result);
    },
  });
}

const DESCRIPTION = `Runs a JavaScript program that calls tools, and returns what it returned and logged.
Write the body of an async function: call tools with \`await tools.<name>(input)\`, combine their results in code (loops, Promise.all, arithmetic), use console.log for notes, and \`return\` the value you need. Values are plain JSON. There is no network, file system, require or process. A failed call rejects with an Error you can catch.
The tools:`;

/** The observation of one program: its log, then what it returned, or its error. */
function observation(result: ProgramResult): string {
  const log = result.logs.length ? `Log:\n${result.logs.join('\n')}\n` : '';
  if (!result.ok) return `${log}Error: ${result.error}`;
  if (result.final) return `${log}final_answer: ${result.final.json ?? 'undefined'}`;
  return `${log}Returned: ${result.json ?? 'undefined (the program returned nothing)'}`;
}

function answerText(json: string | undefined): string {
  if (json === undefined) return '';
  const value: unknown = JSON.parse(json);
  return typeof value === 'string' ? value : json;
}

function definedBudgets(options: Partial<CodeBudgets>): Partial<CodeBudgets> {
  const out: Partial<CodeBudgets> = {};
  for (const key of Object.keys(DEFAULT_BUDGETS) as (keyof CodeBudgets)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(typeof value === 'number' && value > 0)) {
      throw new TypeError(`codeMode: ${key} must be a positive number (got ${String(value)}).`);
    }
    out[key] = value;
  }
  return out;
}

function newSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/**
 * Nested calls for a `run_code` called outside an agent run (an MCP server, a direct call): the same
 * executor with the caller's approvals, nothing kept across restarts.
 */
function localNestedCalls(ctx: ToolContext, own: ToolRegistry | undefined): NestedCalls {
  const registry = own ?? new ToolRegistry();
  const executor = createToolExecutor({
    registry,
    runId: ctx.runId,
    approve: (request) => ctx.approve(request),
    ask: ctx.ask && ((question) => ctx.ask!(question)),
    parent: ctx.parent,
    logger: ctx.logger,
  });
  return {
    registry,
    save: () => Promise.resolve(),
    end() {},
    fail() {},
    async run(call, _registry, hooks = {}) {
      let value: unknown;
      const [record] = await executor.execute([call], {
        signal: hooks.signal ? AbortSignal.any([ctx.signal, hooks.signal]) : ctx.signal,
        onWait: hooks.onWait && (() => hooks.onWait?.()),
        beforeStart: hooks.beforeStart && (() => hooks.beforeStart?.()),
        onValue: (_index, output) => {
          value = output;
        },
      });
      if (!record.ok) return { ok: false, error: record.output };
      return { ok: true, value: toJsonValue(value), output: record.output };
    },
  };
}
