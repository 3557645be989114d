import type { ModelRequest, ModelResponse, ScriptedReply } from '../../../src/index.js';
import { Agent, contentText, scriptedModel } from '../../../src/index.js';

type Reply = ScriptedReply | ((request: ModelRequest) => ScriptedReply);

/** Which planner prompt a request is: the plan, a replan decision, or the final answer. */
export function plannerRole(request: ModelRequest): 'plan' | 'replan' | 'answer' {
  const system = contentText(request.messages[0]?.content ?? '');
  if (system.includes('"action"')) return 'replan';
  if (system.includes('"steps"')) return 'plan';
  return 'answer';
}

/**
 * A scripted planner serving separate queues for plan, replan and answer calls. A replan queue
 * that runs dry answers `continue`; an answer queue that runs dry joins the results.
 */
export function scriptedPlanner(script: { plan: Reply[]; replan?: Reply[]; answer?: Reply[] }, usage?: number) {
  const used = { plan: 0, replan: 0, answer: 0 };
  return scriptedModel(
    (request) => {
      const role = plannerRole(request);
      const queue = script[role] ?? [];
      const next = queue[used[role]++];
      const reply =
        next === undefined
          ? role === 'replan'
            ? '{"action":"continue"}'
            : role === 'answer'
              ? 'ANSWER'
              : 'no plan'
          : typeof next === 'function'
            ? next(request)
            : next;
      return withUsage(reply, usage);
    },
    { id: 'planner' },
  );
}

/** The step the executor was asked to do (the text after "Now do step N only: "). */
export function stepOf(request: ModelRequest): string {
  const text = contentText(request.messages.find((m) => m.role === 'user')?.content ?? '');
  return /Now do step \d+ only: (.*)/.exec(text)?.[1] ?? '';
}

/** An executor agent that answers each step with `done: <step>` (or what `answer` says). */
export function scriptedExecutor(answer: (step: string) => ScriptedReply = (s) => `done: ${s}`, usage?: number) {
  const model = scriptedModel((request) => withUsage(answer(stepOf(request)), usage), { id: 'executor' });
  return { model, agent: new Agent({ name: 'executor', model }) };
}

export function withUsage(reply: ScriptedReply, tokens: number | undefined): ModelResponse {
  const response = typeof reply === 'string' ? { text: reply } : reply;
  return tokens === undefined ? response : { ...response, usage: { promptTokens: tokens, completionTokens: 0 } };
}

export const plan = (...steps: string[]) => JSON.stringify({ steps });
