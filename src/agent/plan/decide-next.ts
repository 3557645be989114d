import type { Message } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { Language } from '../../protocols/index.js';
import { event } from '../run/index.js';
import { askPlanner, type PlannerCall } from './ask-planner.js';
import { type PlanView, planPrompts } from './plan-prompts.js';
import { type ReplanDecision, replanDecisionSchema } from './plan-schema.js';
import { readStructuredReply } from './read-structured-reply.js';

/**
 * Asks the replanner what to do after a step: continue, replace the remaining steps, or finish.
 * An unreadable reply means continue (with a `warning` event): the plan in hand is still a plan.
 */
export async function decideNext(
  replanner: Model,
  view: PlanView,
  options: { maxPlanSteps: number; language: Language },
  call: PlannerCall,
): Promise<ReplanDecision> {
  const prompts = planPrompts(options.language);
  const next = view.results.length;
  const messages: Message[] = [
    { role: 'system', content: prompts.replanSystem(options.maxPlanSteps) },
    { role: 'user', content: prompts.replanQuestion(view, next) },
  ];
  const response = await askPlanner(replanner, messages, next, call);
  const decision = readStructuredReply(response.text, replanDecisionSchema(options.maxPlanSteps));
  if (decision.ok) return decision.value;
  call.state.stats.invalidReplies += 1;
  call.emit(
    event(call.state, 'warning', {
      step: next,
      code: 'replan_unreadable',
      message: `The replanner's reply could not be read, so the plan continues. ${decision.reason}`,
    }),
  );
  return { action: 'continue' };
}
