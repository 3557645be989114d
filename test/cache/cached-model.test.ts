import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedModel, cacheKey, memoryCacheStore } from '../../src/cache/cached-model.js';
import { SqliteCacheStore, withCache } from '../../src/cache/sqlite-cache-store.js';
import type { ModelChunk, ModelRequest } from '../../src/core/index.js';
import { scriptedModel } from '../../src/llm/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-cache-'));
  dirs.push(dir);
  return dir;
}

const ask = (content: string): ModelRequest => ({ messages: [{ role: 'user', content }] });

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const out: ModelChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe('cacheKey', () => {
  it('ignores key order and the signal but not content, tools or settings', () => {
    const base = cacheKey('m', ask('hi'));
    expect(cacheKey('m', { signal: new AbortController().signal, messages: [{ content: 'hi', role: 'user' }] })).toBe(
      base,
    );
    expect(cacheKey('m', ask('hi!'))).not.toBe(base);
    expect(cacheKey('other', ask('hi'))).not.toBe(base);
    expect(cacheKey('m', { ...ask('hi'), temperature: 0 })).not.toBe(base);
    expect(cacheKey('m', { ...ask('hi'), tools: [{ name: 't', description: '', parameters: {} }] })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cachedModel', () => {
  it('answers a repeated request from the cache with zero usage and marks it', async () => {
    const inner = scriptedModel([{ text: 'four', usage: { promptTokens: 10, completionTokens: 2 } }, 'second']);
    const model = cachedModel(inner, { store: memoryCacheStore() });
    const first = await model.generate(ask('2+2?'));
    const again = await model.generate(ask('2+2?'));
    expect(first).toMatchObject({ text: 'four', usage: { promptTokens: 10, completionTokens: 2 } });
    expect(first.cached).toBeUndefined();
    expect(again).toMatchObject({ text: 'four', cached: true, usage: { promptTokens: 0, completionTokens: 0 } });
    expect(again.cacheKey).toBe(cacheKey('scripted', ask('2+2?')));
    expect(inner.calls).toHaveLength(1);
    expect((await model.generate(ask('other'))).text).toBe('second');
  });

  it('caches streamed replies and streams hits, tool calls included', async () => {
    const call = { id: 'c1', name: 'calc', arguments: '{"x":1}' };
    const inner = scriptedModel([{ text: 'thinking', toolCalls: [call] }]);
    const model = cachedModel(inner, { store: memoryCacheStore() });
    const first = await collect(model.stream(ask('q')));
    const second = await collect(model.stream(ask('q')));
    expect(first.at(-1)).toMatchObject({ type: 'response', response: { text: 'thinking' } });
    expect(second).toEqual([
      { type: 'text_delta', text: 'thinking' },
      { type: 'tool_call_delta', index: 0, id: 'c1', name: 'calc', argumentsDelta: '{"x":1}' },
      expect.objectContaining({ type: 'response', response: expect.objectContaining({ cached: true }) }),
    ]);
    expect(inner.calls).toHaveLength(1);
  });

  it('does not cache errors', async () => {
    const inner = scriptedModel([]);
    const store = memoryCacheStore();
    const model = cachedModel(inner, { store });
    await expect(model.generate(ask('q'))).rejects.toThrow(/ran out of replies/);
    expect(store.size).toBe(0);
  });
});

describe('SqliteCacheStore', () => {
  it('persists replies across store instances (withCache)', async () => {
    const dir = tempDir();
    const first = withCache(scriptedModel(['from the model']), dir);
    expect((await first.generate(ask('q'))).text).toBe('from the model');
    const inner = scriptedModel([]);
    const second = withCache(inner, dir);
    expect(await second.generate(ask('q'))).toMatchObject({ text: 'from the model', cached: true });
    expect(inner.calls).toHaveLength(0);
  });

  it('stores clean replies (no cached marker) and counts them', async () => {
    const store = new SqliteCacheStore(join(tempDir(), 'c.sqlite'));
    const model = cachedModel(scriptedModel(['a']), { store });
    await model.generate(ask('q'));
    await model.generate(ask('q'));
    expect(store.count()).toBe(1);
    expect(store.get(cacheKey('scripted', ask('q')))).toEqual({ text: 'a', finishReason: 'stop', modelId: 'scripted' });
    store.close();
  });

  it('explains a cache path it cannot open', () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, 'not a folder');
    expect(() => new SqliteCacheStore(join(file, 'c.sqlite'))).toThrow(/Cannot open the model cache/);
  });
});
