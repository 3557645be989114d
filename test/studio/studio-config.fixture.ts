// The config the studio browser test serves: scripted models, no LLM.
import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import { contains, noError } from '../../src/eval/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { defineConfig } from '../../src/server/index.js';
import { askUserTool } from '../../src/tools/builtins/ask-user.js';
import { defineTool } from '../../src/tools/index.js';
import { createStep, createWorkflow } from '../../src/workflow/index.js';

const call = (id: string, name: string, input: Record<string, unknown>) => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(input) }],
});

/** Token counts a provider would report, so the tree shows tokens and cost per step (scripted is free). */
const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens });

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a fact up.',
  input: z.object({ topic: z.string() }),
  run: ({ topic }) => `${topic}: forty-two`,
});

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys a service.',
  input: z.object({ service: z.string() }),
  needsApproval: true,
  run: ({ service }) => `deployed ${service}`,
});

/** Calls `lookup` `steps` times (scripted by the tool results so far), then answers. */
const stepper = (steps: number, delayMs: number) =>
  scriptedModel(
    (request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      return done < steps ? call(`c${done}`, 'lookup', { topic: `step ${done}` }) : `Finished after ${steps} lookups.`;
    },
    { delayMs },
  );

/** `review`: draft → (spell ‖ tone) → approve, which suspends for a reviewer's verdict → send to each recipient. */
const draft = createStep({
  id: 'draft',
  input: z.object({ topic: z.string(), words: z.number().int() }),
  output: z.object({ text: z.string() }),
  run: ({ topic, words }) => {
    if (words < 1) throw new Error(`A note needs at least one word, not ${words}.`);
    return { text: `A ${words}-word note on ${topic}.` };
  },
});
const spell = createStep({
  id: 'spell',
  input: z.object({ text: z.string() }),
  output: z.number(),
  run: ({ text }) => text.split(' ').length,
});
const tone = createStep({ id: 'tone', input: z.object({ text: z.string() }), output: z.string(), run: () => 'calm' });
const approve = createStep({
  id: 'approve',
  input: z.object({ spell: z.number(), tone: z.string() }),
  output: z.array(z.string()),
  resumeSchema: z.object({
    reviewer: z.string().min(1),
    score: z.number().min(1).max(5).describe('1 (poor) to 5 (great)'),
    channel: z.enum(['email', 'chat']),
    urgent: z.boolean(),
    team: z.object({ name: z.string() }),
  }),
  run: (checks, ctx) =>
    ctx.resumeData
      ? [`${ctx.resumeData.reviewer} via ${ctx.resumeData.channel}`, `team ${ctx.resumeData.team.name}`]
      : ctx.suspend({ question: 'Approve this draft?', checks }),
});
const send = createStep({ id: 'send', input: z.string(), output: z.string(), run: (to) => `sent to ${to}` });
const review = createWorkflow({ id: 'review', input: draft.input, output: z.array(z.string()) })
  .then(draft)
  .parallel([spell, tone])
  .then(approve)
  .foreach(send, { concurrency: 2 })
  .commit();

/** `signup`: waits for a `confirmed` event whose payload has an array (a JSON field in the form). */
const confirmed = z.object({ email: z.string(), tags: z.array(z.string()) });
const signup = createWorkflow({ id: 'signup', input: z.string(), output: confirmed })
  .waitForEvent('confirmed', confirmed)
  .commit();

export default defineConfig({
  workflows: { review, signup },
  // Online scoring: every helper run is scored, and its run page shows the scores.
  scoring: { agents: { helper: { scorers: [contains('42'), noError()] } } },
  agents: {
    helper: () =>
      new Agent({
        model: scriptedModel([
          { ...call('c1', 'lookup', { topic: 'meaning of life' }), usage: usage(412, 18) },
          { text: 'The answer is 42.', usage: usage(460, 9) },
        ]),
        tools: [lookup],
      }),
    /** `helper` with new instructions: replaying a helper trace against it diverges at step 0. */
    'helper-brief': () =>
      new Agent({
        model: scriptedModel([call('c1', 'lookup', { topic: 'meaning of life' }), 'The answer is 42.']),
        tools: [lookup],
        instructions: 'Answer in one short sentence.',
      }),
    ops: () =>
      new Agent({
        model: scriptedModel([call('d1', 'deploy', { service: 'api' }), 'Deployment handled.']),
        tools: [deploy],
      }),
    asker: () =>
      new Agent({
        model: scriptedModel((request) => {
          const answer = request.messages.find((m) => m.role === 'tool');
          return answer ? `You picked ${answer.content}.` : call('q1', 'ask_user', { question: 'Which colour?' });
        }),
        tools: [askUserTool],
      }),
    /** Answers with every user turn it was sent, to show the chat's history reaches the agent. */
    echo: () =>
      new Agent({
        model: scriptedModel((request) =>
          request.messages
            .filter((m) => m.role === 'user')
            .map((m) => m.content)
            .join(' | '),
        ),
      }),
    slow: () => new Agent({ model: stepper(6, 400), tools: [lookup], maxSteps: 20 }),
    endless: () => new Agent({ model: stepper(200, 300), tools: [lookup], maxSteps: 300 }),
  },
});
