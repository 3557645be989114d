import { z } from 'zod';

/** Body of POST /v1/workflows/:name/runs. */
export const StartWorkflowBody = z.object({
  /** The workflow's input, checked against its `input` schema (400 naming the problem). */
  input: z.unknown(),
  /** Wait for the run to end or suspend before answering (same as `?wait=true`). */
  wait: z.boolean().optional(),
});

/** Body of POST /v1/runs/:id/resume. */
export const ResumeWorkflowBody = z.object({
  /** The suspended step's id or path. */
  step: z.string().min(1).optional(),
  /** The event a `.waitForEvent` waits for. */
  event: z.string().min(1).optional(),
  /** What the step or event gets, checked against its schema (400 and the run stays suspended). */
  payload: z.unknown().optional(),
  wait: z.boolean().optional(),
});

/** Body of POST /v1/runs/:id/fork. */
export const ForkWorkflowBody = z.object({
  /** The step id or checkpoint path to run again from; every checkpoint before it is reused. */
  fromStep: z.string().min(1, 'fromStep must name a step'),
  /** Replaces that step's input. */
  input: z.unknown().optional(),
  wait: z.boolean().optional(),
});

/** Query of the workflow routes. */
export const WorkflowWaitQuery = z.object({
  wait: z.enum(['true', 'false'], { error: 'wait must be true or false' }).optional(),
});

/** Query of `GET /v1/workflows/runs`. */
export const ListWorkflowRunsQuery = z.object({
  workflow: z.string().min(1).max(200).optional(),
  status: z.enum(['running', 'done', 'suspended', 'failed', 'cancelled']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  before: z.coerce.number().int().min(0).optional(),
});
