import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, type Model, type ModelRequest, type ModelResponse } from '../../../src/index.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => a + b,
});

/** A model answering from replies it keeps and hands out as they are (a cache, a fixture table). */
function keptReplies(replies: readonly ModelResponse[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const generate = async (request: ModelRequest) => {
    requests.push(request);
    return replies[Math.min(requests.length - 1, replies.length - 1)];
  };
  return {
    id: 'kept',
    capabilities: { nativeTools: true, streaming: false },
    requests,
    generate,
    async *stream(request) {
      yield { type: 'response', response: await generate(request) };
    },
  };
}

describe("the loop never writes to the model's reply", () => {
  it('reads a frozen reply', async () => {
    const call = Object.freeze({ text: '', toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }] });
    const model = keptReplies([call, Object.freeze({ text: 'It is 3.' })]);
    const result = await new Agent({ model, tools: [add], streaming: false }).run('Add 1 and 2.');
    expect(result.status).toBe('done');
    expect(result.output).toBe('It is 3.');
    expect(result.usage.estimated).toBe(true);
  });

  it("estimates each call's usage from its own request when the same reply object comes back", async () => {
    const call = { text: '', toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }] };
    const model = keptReplies([call, call, { text: 'Done.' }]);
    const agent = new Agent({ model, tools: [add], streaming: false, maxSteps: 6 });
    const result = await agent.run('Add 1 and 2, twice.');
    expect(result.status).toBe('done');
    expect('usage' in call).toBe(false);
    const prompts = result.steps.map((step) => step.usage?.promptTokens ?? 0);
    // The second request is longer than the first, and so is its estimate.
    expect(prompts[1]).toBeGreaterThan(prompts[0]);
  });
});
