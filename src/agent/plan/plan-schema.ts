import { z } from 'zod';

/** The planner's plan: 1..max steps, each a non-empty instruction. */
export function planSchema(maxPlanSteps: number) {
  return z.object({
    steps: z.array(z.string().trim().min(1, 'a step must not be empty')).min(1).max(maxPlanSteps),
  });
}

/** The replanner's decision after a step. */
export function replanDecisionSchema(maxPlanSteps: number) {
  return z.discriminatedUnion('action', [
    z.object({ action: z.literal('continue') }),
    z.object({
      action: z.literal('replan'),
      steps: planSchema(maxPlanSteps).shape.steps,
      reason: z.string().optional(),
    }),
    z.object({ action: z.literal('finish'), answer: z.string().trim().min(1, 'the answer must not be empty') }),
  ]);
}

export type ReplanDecision = z.infer<ReturnType<typeof replanDecisionSchema>>;
