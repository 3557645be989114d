import { z } from 'zod';
import type { RunUsage } from '../core/index.js';

/**
 * One leaf step of a run, sent to wherever steps run in queue mode (a BullMQ job for a
 * `thinkflow worker`). The run's checkpoints are in the shared store; this names the one to write.
 */
export const StepJob = z.object({
  runId: z.string(),
  /** The run's (top-level) workflow: the worker finds the step by `path` inside it. */
  workflowId: z.string(),
  /** The definition the run executes under; a worker with another one refuses the job. */
  definitionHash: z.string(),
  /** The step's checkpoint path (`0.fetch`, `2.docs[3]`, `1.sub/0.inner`, `3.loop#2`). */
  path: z.string(),
  stepId: z.string(),
  /** The step's input, already checked against its schema by the engine. */
  input: z.unknown(),
  /** Its number in the run's events (`step_start.step`). */
  step: z.number().int(),
  /** Set when this run resumes this very step: the payload the resume brought (`ctx.resumeData`). */
  resume: z.object({ payload: z.unknown() }).optional(),
});
export type StepJob = z.infer<typeof StepJob>;

const Usage: z.ZodType<RunUsage> = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  llmCalls: z.number(),
  estimated: z.boolean().optional(),
  costUsd: z.number().optional(),
});

/** What a step job comes back with: the checkpoint the worker wrote (or found), and the step's usage. */
export const StepJobResult = z.object({
  record: z.discriminatedUnion('status', [
    z.object({ status: z.literal('done'), output: z.unknown(), usage: Usage.optional() }),
    z.object({ status: z.literal('suspended'), stepId: z.string(), payload: z.unknown().optional() }),
  ]),
  usage: Usage,
});
export type StepJobResult = z.infer<typeof StepJobResult>;

/**
 * Where leaf steps run instead of in the engine's process: it resolves once the step's checkpoint is
 * written, with that checkpoint, and rejects with the step's error. `queueStepDispatch` (from
 * `thinkflow/queue`) sends them to BullMQ workers.
 */
export type StepDispatch = (job: StepJob, signal: AbortSignal) => Promise<StepJobResult>;
