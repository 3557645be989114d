import type { Message } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { Language } from '../../protocols/index.js';
import { event } from '../run/index.js';
import { askPlanner, type PlannerCall } from './ask-planner.js';
import { planPrompts } from './plan-prompts.js';
import { planSchema } from './plan-schema.js';
import { readStructuredReply } from './read-structured-reply.js';

/** Bad plans retried before the run ends `failed`. */
export const PLAN_RETRIES = 2;

export type WrittenPlan = { ok: true; steps: string[] } | { ok: false; reason: string };

/**
 * Asks the planner for a numbered plan as JSON `{ "steps": [...] }`. A reply that cannot be read
 * or does not fit the schema is sent back with exactly what was wrong, up to `PLAN_RETRIES` times.
 */
export async function writePlan(
  planner: Model,
  input: string,
  options: { maxPlanSteps: number; tools: string; language: Language },
  call: PlannerCall,
): Promise<WrittenPlan> {
  const prompts = planPrompts(options.language);
  const schema = planSchema(options.maxPlanSteps);
  const messages: Message[] = [
    { role: 'system', content: prompts.planSystem(options.maxPlanSteps, options.tools) },
    { role: 'user', content: input },
  ];
  let reason = '';
  for (let attempt = 0; attempt <= PLAN_RETRIES; attempt++) {
    const response = await askPlanner(planner, messages, 0, call);
    // A bare array of steps is a plan too.
    const plan = readStructuredReply(response.text, schema, (v) => (Array.isArray(v) ? { steps: v } : v));
    if (plan.ok) return { ok: true, steps: plan.value.steps };
    reason = plan.reason;
    call.state.stats.invalidReplies += 1;
    call.emit(event(call.state, 'invalid_output', { step: 0, reason, raw: response.text }));
    messages.push(
      { role: 'assistant', content: response.text },
      { role: 'user', content: prompts.planCorrection(reason, options.maxPlanSteps) },
    );
  }
  return {
    ok: false,
    reason: `The planner wrote no usable plan in ${PLAN_RETRIES + 1} tries. Last problem: ${reason}`,
  };
}
