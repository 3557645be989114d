import { z } from 'zod';
import { StepJob, StepJobResult } from '../../workflow/index.js';

/** A step job as it waits in Redis: the step, and the token of the dispatch that added it. */
export const QueuedStep = StepJob.extend({ token: z.string() });
export type QueuedStep = z.infer<typeof QueuedStep>;

/**
 * What a worker returns for a step job: the checkpoint, with the token of the job it ran; or, for a
 * value the step's schemas refused, that failure (so the run ends `invalid_step_value` as it does
 * when the step runs in the engine's process; any other throw fails the job).
 */
export const QueuedStepResult = z.union([
  StepJobResult.extend({ token: z.string() }),
  z.object({ token: z.string(), refused: z.object({ message: z.string() }) }),
]);
export type QueuedStepResult = z.infer<typeof QueuedStepResult>;
