import { describe, expect, it } from 'vitest';
import { isModelError, type ModelResponse } from '../../../src/core/index.js';
import { type ChaosKind, chaosModel, mulberry32 } from '../../../src/llm/chaos/chaos-model.js';
import { scriptedModel } from '../../../src/llm/index.js';

const REACT = 'Thought: I need to add.\nAction: calculator\nAction Input: {"expression": "2+2"}';
const JSON_REPLY = '{"thought":"add","action":"calculator","action_input":{"expression":"2+2"}}';
const NATIVE: ModelResponse = {
  text: '',
  toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"2+2","precision":2}' }],
};
const ask = { messages: [{ role: 'user' as const, content: '2+2?' }] };

async function once(kind: ChaosKind, reply: string | ModelResponse, seed = 3): Promise<ModelResponse> {
  return chaosModel(scriptedModel([reply]), { rates: { [kind]: 1 }, seed }).generate(ask);
}

describe('mulberry32', () => {
  it('gives the same sequence for a seed and another for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const seqA = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(seqA);
    expect(mulberry32(43)()).not.toBe(seqA[0]);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('chaosModel', () => {
  const rates = { truncated_json: 0.15, wrong_tool_name: 0.15, empty_reply: 0.1, rate_limit: 0.1, server_error: 0.05 };

  async function runMany(seed: number): Promise<string[]> {
    const model = chaosModel(
      scriptedModel(() => JSON_REPLY),
      { rates, seed },
    );
    const out: string[] = [];
    for (let i = 0; i < 60; i++) {
      try {
        out.push((await model.generate(ask)).text);
      } catch (error) {
        out.push(isModelError(error) ? `error ${error.status}` : 'other');
      }
    }
    return out;
  }

  it('is reproducible for a seed and differs across seeds', async () => {
    const first = await runMany(7);
    expect(await runMany(7)).toEqual(first);
    expect(await runMany(8)).not.toEqual(first);
    expect(first.filter((t) => t === JSON_REPLY).length).toBeGreaterThan(15);
    expect(first.some((t) => t === 'error 429')).toBe(true);
  });

  it('hits each fault at about its rate', async () => {
    const model = chaosModel(
      scriptedModel(() => 'ok'),
      { rates: { empty_reply: 0.3 }, seed: 1 },
    );
    for (let i = 0; i < 1000; i++) await model.generate(ask);
    const empty = model.log.filter((r) => r.kind === 'empty_reply').length;
    expect(empty).toBeGreaterThan(250);
    expect(empty).toBeLessThan(350);
  });

  it('rejects rates that sum to more than 1', () => {
    expect(() => chaosModel(scriptedModel([]), { rates: { empty_reply: 0.7, rate_limit: 0.5 } })).toThrow(
      /sum to at most 1/,
    );
  });

  it('fullwidth_colon: turns the ReAct labels colons full-width', async () => {
    const { text } = await once('fullwidth_colon', REACT);
    expect(text).toBe(
      REACT.replace('Thought:', 'Thought：').replace('Action:', 'Action：').replace('Action Input:', 'Action Input：'),
    );
  });

  it('fullwidth_colon: knows every spelling of the keyword table (Thoughts, traditional Chinese)', async () => {
    const { text } = await once(
      'fullwidth_colon',
      'Thoughts: 加起來。\n行動: calculator\n行動輸入: {"expression": "2+2"}',
    );
    expect(text).toBe('Thoughts： 加起來。\n行動： calculator\n行動輸入： {"expression": "2+2"}');
  });

  it('code_fence: wraps the reply (or native arguments) in a json fence', async () => {
    expect((await once('code_fence', JSON_REPLY)).text).toBe(`\`\`\`json\n${JSON_REPLY}\n\`\`\``);
    expect((await once('code_fence', NATIVE)).toolCalls?.[0].arguments).toMatch(/^```json\n\{/);
  });

  it('prose_around_json: puts chatter before and after the JSON', async () => {
    const { text } = await once('prose_around_json', JSON_REPLY);
    expect(text).toMatch(/^Sure! Here is my response:\n\n\{/);
    expect(text).toContain(JSON_REPLY);
    expect(text).toMatch(/anything else\.$/);
  });

  it('truncated_json: cuts the JSON (text or native arguments) so it no longer parses', async () => {
    const { text } = await once('truncated_json', JSON_REPLY);
    expect(JSON_REPLY.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(JSON_REPLY.length);
    expect(() => JSON.parse(text)).toThrow();
    const args = (await once('truncated_json', NATIVE)).toolCalls?.[0].arguments ?? '';
    expect(() => JSON.parse(args)).toThrow();
  });

  it('wrong_tool_name: misnames the tool in native calls, ReAct and JSON', async () => {
    const native = (await once('wrong_tool_name', NATIVE)).toolCalls?.[0].name;
    expect(native).not.toBe('calculator');
    expect(native?.toLowerCase()).toContain('calculato');
    const react = (await once('wrong_tool_name', REACT)).text;
    expect(react).not.toMatch(/Action: calculator\n/);
    expect(react).toMatch(/Action: \S*alculato/);
    const json = JSON.parse((await once('wrong_tool_name', JSON_REPLY)).text);
    expect(json.action).not.toBe('calculator');
  });

  it('missing_field: drops the input (native arguments, JSON action_input, ReAct Action Input line)', async () => {
    const args = JSON.parse((await once('missing_field', NATIVE)).toolCalls?.[0].arguments ?? '{}');
    expect(Object.keys(args)).toHaveLength(1);
    expect(JSON.parse((await once('missing_field', JSON_REPLY)).text)).toEqual({
      thought: 'add',
      action: 'calculator',
    });
    expect((await once('missing_field', REACT)).text).toBe('Thought: I need to add.\nAction: calculator');
  });

  it('hallucinated_observation: the model writes its own observation and answer', async () => {
    const { text } = await once('hallucinated_observation', REACT);
    expect(text.startsWith(REACT)).toBe(true);
    expect(text).toContain('\nObservation: The result is 42.');
  });

  it('empty_reply: no text and no tool calls', async () => {
    expect(await once('empty_reply', NATIVE)).toMatchObject({ text: '', toolCalls: undefined, finishReason: 'stop' });
  });

  it('rate_limit and server_error: retryable ModelErrors with 429 and 500, without calling the model', async () => {
    for (const [kind, status] of [
      ['rate_limit', 429],
      ['server_error', 500],
    ] as const) {
      const inner = scriptedModel(['never']);
      const error = await chaosModel(inner, { rates: { [kind]: 1 } })
        .generate(ask)
        .catch((e: unknown) => e);
      expect(isModelError(error)).toBe(true);
      expect(error).toMatchObject({ status, retryable: true });
      expect(inner.calls).toHaveLength(0);
    }
  });

  it('streams the corrupted reply and logs each call', async () => {
    const model = chaosModel(scriptedModel([JSON_REPLY, JSON_REPLY]), { rates: { code_fence: 1 }, seed: 5 });
    let text = '';
    for await (const chunk of model.stream(ask)) if (chunk.type === 'text_delta') text += chunk.text;
    expect(text).toBe(`\`\`\`json\n${JSON_REPLY}\n\`\`\``);
    expect(model.log).toEqual([{ call: 0, kind: 'code_fence' }]);
  });
});
