import { z } from 'zod';
import { defineTool } from '../tool.js';

/** What the model sees when nobody can answer: it should go on, stating its assumptions. */
export const NO_ANSWER =
  'Nobody is available to answer. Continue with your best judgement and say which assumptions you made.';

/**
 * `ask_user`: the model asks the person a clarifying question and waits for the answer. In the
 * server the run pauses as `waiting` until POST /v1/runs/:id/approvals answers; `thinkflow run`
 * and `chat` ask at the terminal. Uses `ctx.ask` when the run provides it, else a yes/no `ctx.approve`.
 *
 * @example
 * const agent = new Agent({ model, tools: [askUserTool] });
 * await agent.run('Book me a table', { ask: async (question) => prompt(question) });
 */
export const askUserTool = defineTool({
  name: 'ask_user',
  description:
    'Ask the user a clarifying question when the request is ambiguous or information is missing. Returns their answer.',
  input: z.object({ question: z.string().min(1).describe('One clear question for the user.') }),
  // Asking again changes nothing: a run resumed after a restart asks the question again rather than
  // telling the model it was interrupted.
  idempotent: true,
  // Under a durable engine the question is the journal's durable wait, not a step.
  replays: true,
  async run({ question }, ctx) {
    if (ctx.ask) {
      const answer = await ctx.ask(question);
      return answer.trim() === '' ? NO_ANSWER : answer;
    }
    const approved = await ctx.approve({ tool: 'ask_user', input: { question }, question });
    return approved ? 'The user answered: yes.' : NO_ANSWER;
  },
});
