import { z } from 'zod';
import type { Agent, Checkpoint } from '../agent/index.js';
import type { AnyTool, ToolContext } from '../tools/index.js';
import type { AnyStep, StepContext, WorkflowShape, WorkflowStep } from './workflow-types.js';

/** What `createStep` takes. */
export interface CreateStepOptions<I, O, R, Id extends string> {
  id: Id;
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  /** The payload a resume must carry when this step suspends itself (a human-input step). */
  resumeSchema?: z.ZodType<R>;
  run(input: I, ctx: StepContext<R>): O | Promise<O>;
}

const STEP_ID = /^[\p{L}\p{N}_-]{1,64}$/u;

/**
 * A typed workflow step: zod schemas check what comes in and what goes out, so a step that gets the
 * wrong shape fails with an error naming both steps.
 * @example
 * const fetchPage = createStep({
 *   id: 'fetch', input: z.object({ url: z.string() }), output: z.object({ text: z.string() }),
 *   run: async ({ url }) => ({ text: await (await fetch(url)).text() }),
 * });
 */
export function createStep<I, O, R = unknown, const Id extends string = string>(
  options: CreateStepOptions<I, O, R, Id>,
): WorkflowStep<I, O, R, Id> {
  checkStepId(options.id);
  return { kind: 'step', ...options };
}

export function checkStepId(id: string): void {
  if (!STEP_ID.test(id)) throw new TypeError(`Step id "${id}" must be 1-64 letters, digits, "_" or "-".`);
}

/** Options of `agentStep`. */
export interface AgentStepOptions<I, Id extends string> {
  id: Id;
  /** The step's input schema; default a string. */
  input?: z.ZodType<I>;
  /** Turns the input into the agent's question; default the input itself (or its JSON). */
  prompt?: (input: I) => string;
}

/**
 * An agent as a step: its answer (the validated object when the agent has an `outputSchema`) is the
 * step's output. The agent checkpoints into the workflow's store, so a crash inside the step keeps its
 * finished tool calls, as a durable agent run does.
 */
export function agentStep<I = string, const Id extends string = string>(
  agent: Agent,
  options: AgentStepOptions<I, Id>,
): WorkflowStep<I, unknown, unknown, Id> {
  checkStepId(options.id);
  const prompt = options.prompt ?? ((input: I) => (typeof input === 'string' ? input : JSON.stringify(input)));
  return {
    kind: 'step',
    id: options.id,
    input: options.input ?? (z.string() as unknown as z.ZodType<I>),
    output: z.unknown(),
    async run(input, ctx) {
      const durable = ctx as StepContext & { durable?: DurableState };
      const result = await agent.run(prompt(input), {
        runId: `${ctx.runId}:${ctx.path}`,
        parentRunId: ctx.runId,
        signal: ctx.signal,
        onEvent: ctx.emit,
        resume: durable.durable?.previous as Checkpoint | undefined,
        onCheckpoint: durable.durable ? (checkpoint) => durable.durable!.save(checkpoint) : undefined,
      });
      ctx.addUsage(result.usage);
      if (result.status !== 'done') {
        throw new Error(`Agent step "${ctx.stepId}" ended ${result.status}: ${result.error?.message ?? result.output}`);
      }
      return result.object ?? result.output;
    },
  };
}

/** A step's own progress inside the store (an agent's checkpoints), handed to it by the engine. */
export interface DurableState {
  previous?: unknown;
  save(value: unknown): Promise<void>;
}

/** A tool as a step: the tool's own validation checks the input, its result is the output. */
export function toolStep<I, O>(
  tool: AnyTool & { run(input: I, ctx: ToolContext): O | Promise<O> },
): WorkflowStep<I, O> {
  return {
    kind: 'step',
    id: tool.name,
    input: z.unknown().transform((value, issue) => {
      const parsed = tool.parse(value);
      if (parsed.ok) return parsed.value as I;
      for (const problem of parsed.issues) issue.addIssue({ code: 'custom', message: String(problem) });
      return z.NEVER;
    }) as unknown as z.ZodType<I>,
    output: z.unknown() as z.ZodType<O>,
    run: (input, ctx) =>
      tool.run(input, {
        signal: ctx.signal,
        runId: ctx.runId,
        callId: ctx.path,
        logger: console,
        approve: async () => false,
      }) as O | Promise<O>,
  };
}

/** A workflow as a step of another: its nodes run inside the parent's run, so its suspends wake the parent. */
export function workflowAsStep(workflow: WorkflowShape): AnyStep {
  return {
    kind: 'step',
    id: workflow.id,
    input: workflow.input,
    output: workflow.output,
    workflow,
    run: () => {
      throw new Error('a nested workflow runs through the engine');
    },
  };
}
