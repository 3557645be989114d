import { describe, expect, it } from 'vitest';
import { applyScorer, embeddingSimilarity, type RunLike, trajectory } from '../../../src/eval/index.js';
import type { EmbeddingProvider } from '../../../src/memory/index.js';

const made = (...calls: (string | [string, Record<string, unknown>])[]): RunLike => ({
  status: 'done',
  output: '',
  steps: calls.map((c, i) => {
    const [name, input] = typeof c === 'string' ? [c, {}] : c;
    return {
      kind: 'tool_calls' as const,
      toolCalls: [{ id: `c${i}`, name, input, output: '', ok: true, durationMs: 1 }],
    };
  }),
  usage: { promptTokens: 0, completionTokens: 0, llmCalls: 1 },
  durationMs: 1,
});
const check = (scorer: ReturnType<typeof trajectory>, run: RunLike, expected?: unknown) =>
  applyScorer(scorer, { input: '', output: '', run, expected });

describe('trajectory', () => {
  const want = ['search', { name: 'fetch', arguments: { url: 'https://a.example' } }, 'summarize'];

  it('exact: the same calls in the same order and nothing more', async () => {
    expect(
      (await check(trajectory(want), made('search', ['fetch', { url: 'https://a.example', timeout: 5 }], 'summarize')))
        .pass,
    ).toBe(true);
    const extra = await check(
      trajectory(want),
      made('search', ['fetch', { url: 'https://a.example' }], 'summarize', 'search'),
    );
    expect(extra).toMatchObject({ pass: false, score: 0.75 });
    expect(
      (await check(trajectory(want), made('search', ['fetch', { url: 'https://b.example' }], 'summarize'))).pass,
    ).toBe(false);
  });

  it('in-order: the expected calls in order, others between', async () => {
    const scorer = trajectory(want, { mode: 'in-order' });
    expect(
      (await check(scorer, made('plan', 'search', 'search', ['fetch', { url: 'https://a.example' }], 'summarize')))
        .pass,
    ).toBe(true);
    const swapped = await check(scorer, made('summarize', 'search', ['fetch', { url: 'https://a.example' }]));
    expect(swapped.pass).toBe(false);
    expect(swapped.reason).toMatch(/missing summarize in order/);
  });

  it('any-order: every expected call, any order, extras allowed', async () => {
    const scorer = trajectory(['a', 'b', 'b'], { mode: 'any-order' });
    expect((await check(scorer, made('b', 'x', 'a', 'b'))).pass).toBe(true);
    expect(await check(scorer, made('b', 'a'))).toMatchObject({
      pass: false,
      reason: expect.stringMatching(/missing b/),
    });
  });

  it('subset: no call outside the expected ones', async () => {
    const scorer = trajectory(['a', 'b'], { mode: 'subset' });
    expect((await check(scorer, made('b'))).pass).toBe(true);
    expect((await check(scorer, made())).pass).toBe(true);
    expect(await check(scorer, made('a', 'delete_all'))).toMatchObject({
      score: 0.5,
      pass: false,
      reason: 'not expected: delete_all',
    });
  });

  it("reads the case's expected.trajectory", async () => {
    expect((await check(trajectory(), made('a'), { trajectory: ['a'] })).pass).toBe(true);
    expect((await check(trajectory(), made('a'))).error).toMatch(/no expected steps/);
  });
});

describe('embeddingSimilarity', () => {
  // A bag-of-letters embedder: deterministic, and similar texts get similar vectors.
  const calls: string[][] = [];
  const letters: EmbeddingProvider = {
    id: 'test:letters',
    embed: async (texts) => {
      calls.push(texts);
      return texts.map((t) =>
        Array.from({ length: 26 }, (_, i) => [...t.toLowerCase()].filter((c) => c.charCodeAt(0) - 97 === i).length),
      );
    },
  };

  it('scores cosine similarity against the reference and embeds the reference once', async () => {
    const scorer = embeddingSimilarity({ embedder: letters, passAt: 0.8 });
    const close = await applyScorer(scorer, { input: '', output: 'the cat sat', expected: 'the cat sat down' });
    const far = await applyScorer(scorer, { input: '', output: 'zzz', expected: 'the cat sat down' });
    expect(close.pass).toBe(true);
    expect(far).toMatchObject({ score: 0, pass: false });
    expect(calls.filter((c) => c[0] === 'the cat sat down')).toHaveLength(1);
    expect((await applyScorer(scorer, { input: '', output: 'x' })).error).toMatch(/no reference/);
  });
});
