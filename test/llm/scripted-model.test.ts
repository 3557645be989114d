import { describe, expect, it } from 'vitest';
import { isModelError, scriptedModel } from '../../src/index.js';

describe('scriptedModel', () => {
  it('serves replies in order and records every request', async () => {
    const model = scriptedModel(['one', { text: '', toolCalls: [{ id: 'c1', name: 't', arguments: '{}' }] }]);
    const a = await model.generate({ messages: [{ role: 'user', content: 'hi' }] });
    const b = await model.generate({ messages: [{ role: 'user', content: 'again' }] });
    expect(a.text).toBe('one');
    expect(a.finishReason).toBe('stop');
    expect(b.toolCalls?.[0].name).toBe('t');
    expect(b.finishReason).toBe('tool_calls');
    expect(model.calls.map((c) => c.messages[0].content)).toEqual(['hi', 'again']);
    expect(model.capabilities.nativeTools).toBe(true);
  });

  it('keeps no request with record: false, and still serves the script in order', async () => {
    const model = scriptedModel(['one', 'two'], { record: false });
    const a = await model.generate({ messages: [{ role: 'user', content: 'hi' }] });
    const b = await model.generate({ messages: [{ role: 'user', content: 'again' }] });
    expect([a.text, b.text]).toEqual(['one', 'two']);
    expect(model.calls).toEqual([]);
    // A function script is told each call's index as before.
    const indexes: number[] = [];
    const counted = scriptedModel(
      (_, i) => {
        indexes.push(i);
        return `call ${i}`;
      },
      { record: false },
    );
    for (let i = 0; i < 3; i++) await counted.generate({ messages: [] });
    expect(indexes).toEqual([0, 1, 2]);
    await expect(model.generate({ messages: [] })).rejects.toThrow(/ran out of replies: call 3/);
  });

  it('throws a clear error when the script runs out', async () => {
    const model = scriptedModel(['only']);
    await model.generate({ messages: [] });
    const error = await model.generate({ messages: [] }).catch((e: unknown) => e);
    expect(isModelError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/ran out of replies: call 2 but the script has 1/);
  });

  it('accepts an async function of the request', async () => {
    const model = scriptedModel(async (req, i) => `${i}:${req.messages.length}`);
    expect((await model.generate({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('0:1');
  });

  it('honours the abort signal while waiting', async () => {
    const model = scriptedModel(['late'], { delayMs: 5_000 });
    const controller = new AbortController();
    const pending = model.generate({ messages: [], signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const started = Date.now();
    await expect(pending).rejects.toThrow(/aborted/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('streams text deltas, tool-call deltas and then the whole response', async () => {
    const model = scriptedModel([{ text: 'hello world', toolCalls: [{ id: 'a', name: 'x', arguments: '{"q":1}' }] }]);
    const chunks = [];
    for await (const chunk of model.stream({ messages: [] })) chunks.push(chunk);
    const text = chunks.flatMap((c) => (c.type === 'text_delta' ? [c.text] : [])).join('');
    expect(text).toBe('hello world');
    expect(chunks.some((c) => c.type === 'tool_call_delta')).toBe(true);
    expect(chunks.at(-1)?.type).toBe('response');
  });
});
