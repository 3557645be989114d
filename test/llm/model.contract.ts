import { afterAll, describe, expect, it } from 'vitest';
import { isModelError, type Model, type ModelChunk, type ModelResponse } from '../../src/index.js';

/** What the model under test should answer: the replies in order, or a server that never answers. */
export interface ContractScenario {
  replies: ModelResponse[];
  /** The model must not answer until aborted. */
  hang?: boolean;
}

export interface ModelContractOptions {
  name: string;
  /** Builds a model that will answer `scenario` (e.g. by queueing replies on a local wire server). */
  createModel(scenario: ContractScenario): Model | Promise<Model>;
  /** Whether every response must carry usage (providers: yes, reported or estimated). Default true. */
  expectsUsage?: boolean;
  /** Runs after the suite (close servers). */
  cleanup?(): Promise<void>;
}

const TWO_CALLS: ModelResponse = {
  text: '',
  toolCalls: [
    { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' },
    { id: 'call_2', name: 'calculator', arguments: '{"expression":"2 * (3 + 4)"}' },
  ],
  usage: { promptTokens: 40, completionTokens: 12 },
};

const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function args(response: ModelResponse) {
  return (response.toolCalls ?? []).map((call) => ({ name: call.name, input: JSON.parse(call.arguments) }));
}

/**
 * The behaviour every Model must have: plain text, several tool calls, streaming that ends with
 * the whole response, and an abort that stops a call at once. Run it for every provider.
 */
export function runModelContract(options: ModelContractOptions): void {
  const expectsUsage = options.expectsUsage ?? true;
  describe(`Model contract: ${options.name}`, () => {
    if (options.cleanup) afterAll(options.cleanup);

    it('answers plain text', async () => {
      const model = await options.createModel({ replies: [{ text: 'Paris is the capital of France.' }] });
      const response = await model.generate({ messages: [{ role: 'user', content: 'Capital of France?' }] });
      expect(response.text).toBe('Paris is the capital of France.');
      expect(response.toolCalls ?? []).toEqual([]);
      expect(response.finishReason).toBe('stop');
      if (expectsUsage) expect(response.usage?.completionTokens).toBeGreaterThan(0);
    });

    it('returns several tool calls in one reply', async () => {
      const model = await options.createModel({ replies: [TWO_CALLS] });
      const response = await model.generate({ messages: [{ role: 'user', content: 'go' }], tools: [weatherTool] });
      expect(args(response)).toEqual([
        { name: 'get_weather', input: { city: 'Paris', unit: 'c' } },
        { name: 'calculator', input: { expression: '2 * (3 + 4)' } },
      ]);
      expect(response.toolCalls?.every((call) => call.id.length > 0)).toBe(true);
      expect(response.finishReason).toBe('tool_calls');
      if (expectsUsage) expect(response.usage).toMatchObject({ promptTokens: 40, completionTokens: 12 });
    });

    it('streams text deltas and ends with the whole response', async () => {
      const text = 'Streaming works, one piece at a time.';
      const model = await options.createModel({ replies: [{ text }] });
      const chunks = await collect(model.stream({ messages: [{ role: 'user', content: 'stream' }] }));
      const last = chunks.at(-1);
      expect(last?.type).toBe('response');
      expect(chunks.filter((c) => c.type === 'response')).toHaveLength(1);
      expect(chunks.flatMap((c) => (c.type === 'text_delta' ? [c.text] : [])).join('')).toBe(text);
      if (last?.type === 'response') {
        expect(last.response.text).toBe(text);
        if (expectsUsage) expect(last.response.usage?.completionTokens).toBeGreaterThan(0);
      }
    });

    it('streams tool calls and assembles their arguments', async () => {
      const model = await options.createModel({ replies: [TWO_CALLS] });
      const chunks = await collect(model.stream({ messages: [{ role: 'user', content: 'go' }], tools: [weatherTool] }));
      const last = chunks.at(-1);
      if (last?.type !== 'response') throw new Error('stream did not end with a response chunk');
      expect(args(last.response)).toEqual(args(TWO_CALLS));
      const byIndex = new Map<number, string>();
      for (const c of chunks) {
        if (c.type === 'tool_call_delta') byIndex.set(c.index, (byIndex.get(c.index) ?? '') + c.argumentsDelta);
      }
      expect([...byIndex.values()].map((a) => JSON.parse(a))).toEqual(args(TWO_CALLS).map((a) => a.input));
    });

    it('stops at once when the signal aborts a call in flight', async () => {
      const model = await options.createModel({ replies: [{ text: 'never' }], hang: true });
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 30);
      const error = await model
        .generate({ messages: [{ role: 'user', content: 'wait' }], signal: controller.signal })
        .catch((e: unknown) => e);
      expect(isModelError(error)).toBe(true);
      expect((error as { code: string }).code).toBe('model_aborted');
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('refuses a call whose signal is already aborted', async () => {
      const model = await options.createModel({ replies: [{ text: 'x' }] });
      const controller = new AbortController();
      controller.abort();
      await expect(model.generate({ messages: [], signal: controller.signal })).rejects.toMatchObject({
        code: 'model_aborted',
      });
    });
  });
}
