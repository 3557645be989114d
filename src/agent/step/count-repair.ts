import type { ReadReply, Step } from '../../core/index.js';
import { event, type RunScope } from '../run/index.js';

/**
 * Records a reply the parser read through a slip (repaired JSON, or one of the `REPLY_HABITS`): it
 * runs as read, with no correction and no extra model call, and is counted instead, in
 * `stats.repairedReplies` and `stats.habits`, named on the step, and reported as a `reply_repaired`
 * warning so traces show it.
 */
export function countRepair({ state, emit }: RunScope, reply: ReadReply, step: Step): void {
  if (reply.type === 'invalid') return;
  const habits = reply.habits ?? [];
  if (!reply.repaired && habits.length === 0) return;
  state.stats.repairedReplies += 1;
  for (const habit of habits) state.stats.habits[habit] = (state.stats.habits[habit] ?? 0) + 1;
  if (habits.length > 0) step.habits = habits;
  const what = habits.length > 0 ? habits.join(', ') : 'repaired JSON';
  emit(
    event(state, 'warning', {
      step: step.index,
      code: 'reply_repaired',
      message: `Read the reply through: ${what}.`,
      ...(habits.length > 0 ? { habits } : {}),
    }),
  );
}
