import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { createAnswerReader } from '../../../src/protocols/index.js';
import { defineTool } from '../../../src/tools/index.js';

/**
 * Trajectories in the ReAct paper's own format (`Search[…]`, `Lookup[…]`, `Finish[…]`, numbered
 * keywords) replayed through an agent on the react protocol: the query reaches the tool as written,
 * and the answer is what `Finish[…]` holds, read and streamed the same way.
 */
function paperAgent(replies: string[]) {
  const queries: string[] = [];
  const search = defineTool({
    name: 'Search',
    description: 'Searches an encyclopedia.',
    input: z.object({ query: z.string() }),
    run: ({ query }) => {
      queries.push(query);
      return 'Foo and Bar is a 1990 film set in Paris.';
    },
  });
  return { agent: new Agent({ model: scriptedModel(replies), tools: [search], protocol: 'react' }), queries };
}

async function answerOf(agent: Agent, question: string) {
  const reader = createAnswerReader();
  let streamed = '';
  let answer: string | undefined;
  for await (const event of agent.stream(question)) {
    for (const delta of reader.read(event)) streamed += delta.text;
    if (event.type === 'run_end') answer = event.output;
  }
  return { answer, streamed };
}

describe('the react protocol on ReAct-paper trajectories', () => {
  it('passes a query that starts with a quote to the tool whole', async () => {
    const { agent, queries } = paperAgent([
      'Thought 1: I need to search the title.\nAction 1: Search["Foo" Bar]',
      'Thought 2: And both titles.\nAction 2: Search["Foo" and "Bar"]',
      "思考 3：再搜一次。\n行动 3：Search['流浪地球' 导演]",
      'Thought 4: A quoted query is the text inside.\nAction 4: Search["Foo Bar"]',
      'Thought 5: It is set in Paris.\nAction 5: Finish[Paris]',
    ]);
    await answerOf(agent, 'Where is Foo and Bar set?');
    expect(queries).toEqual(['"Foo" Bar', '"Foo" and "Bar"', "'流浪地球' 导演", 'Foo Bar']);
  });

  it('ends the answer at the bracket that closes Finish[…]', async () => {
    const { agent } = paperAgent([
      'Thought 1: Search it.\nAction 1: Search[Foo and Bar]',
      'Thought 2: The film is from 1990.\nAction 2: Finish[1990], the year it came out.',
    ]);
    const { answer, streamed } = await answerOf(agent, 'When did Foo and Bar come out?');
    expect(answer).toBe('1990');
    expect(streamed).toBe('1990');
  });

  it('ends a Chinese Finish[…] at its bracket too', async () => {
    const { agent } = paperAgent(['思考 1：已经知道了。\n行动 1：Finish[巴黎]，因为电影设在那里。']);
    const { answer } = await answerOf(agent, '电影设在哪里？');
    expect(answer).toBe('巴黎');
  });
});
