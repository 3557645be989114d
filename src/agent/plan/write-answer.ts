import { errorMessage } from '../../core/index.js';
import type { Model } from '../../llm/index.js';
import type { Language } from '../../protocols/index.js';
import { event } from '../run/index.js';
import { askPlanner, type PlannerCall } from './ask-planner.js';
import { type PlanView, planPrompts } from './plan-prompts.js';

/**
 * One last planner call that writes the answer from the steps' results. If that call fails, the
 * last finished step's output stands in, with a `warning` (an abort is rethrown to the caller).
 */
export async function writeAnswer(
  planner: Model,
  view: PlanView,
  language: Language,
  call: PlannerCall,
): Promise<string> {
  const prompts = planPrompts(language);
  try {
    const response = await askPlanner(
      planner,
      [
        { role: 'system', content: prompts.answerSystem },
        { role: 'user', content: prompts.answerQuestion(view) },
      ],
      view.results.length,
      call,
    );
    return response.text.trim();
  } catch (error) {
    if (call.signal.aborted) throw error;
    call.emit(
      event(call.state, 'warning', {
        code: 'final_answer_failed',
        message: `The call for the final answer failed: ${errorMessage(error)}`,
      }),
    );
    return view.results.findLast((r) => r.status === 'done')?.output ?? '';
  }
}
