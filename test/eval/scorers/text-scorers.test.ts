import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  applyScorer,
  budget,
  contains,
  createScorer,
  exact,
  jsonMatch,
  noError,
  numeric,
  type RunLike,
  regex,
  type Scorer,
} from '../../../src/eval/index.js';

const run = (over: Partial<RunLike> = {}): RunLike => ({
  status: 'done',
  output: 'ok',
  steps: [{ kind: 'final', toolCalls: [] }],
  usage: { promptTokens: 100, completionTokens: 20, llmCalls: 1 },
  durationMs: 40,
  ...over,
});
const score = (scorer: ReturnType<typeof exact>, output: string, expected?: unknown, r?: RunLike) =>
  applyScorer(scorer, { input: 'q', output, expected, run: r });

describe('text scorers', () => {
  it('exact trims, folds case only when asked, and falls back to the case expected', async () => {
    expect((await score(exact('Paris'), '  Paris\n')).pass).toBe(true);
    expect((await score(exact('Paris'), 'paris')).pass).toBe(false);
    expect((await score(exact('Paris', { ignoreCase: true }), 'PARIS')).pass).toBe(true);
    expect((await score(exact(), 'Rome', 'Rome')).score).toBe(1);
    const missing = await score(exact(), 'Rome');
    expect(missing.error).toMatch(/no expected value/);
    expect(missing.pass).toBe(false);
  });

  it('contains scores the share of texts found and names the missing ones', async () => {
    const r = await score(contains(['red', 'green', 'blue']), 'red and blue');
    expect(r.score).toBeCloseTo(2 / 3);
    expect(r.pass).toBe(false);
    expect(r.reason).toContain('"green"');
    expect((await score(contains('PAR', { ignoreCase: true }), 'paris')).pass).toBe(true);
  });

  it('regex resets a global pattern between answers', async () => {
    const scorer = regex(/\d+/g);
    expect((await score(scorer, 'a 12')).pass).toBe(true);
    expect((await score(scorer, 'b 34')).pass).toBe(true);
    expect((await score(regex('^yes$', { flags: 'i' }), 'YES')).pass).toBe(true);
  });

  it('numeric reads the last number, with absolute and relative tolerance', async () => {
    expect((await score(numeric(1234.5), 'total: 1,234.5')).pass).toBe(true);
    expect((await score(numeric(10, { tolerance: 0.5 }), 'about 10.4')).pass).toBe(true);
    expect((await score(numeric(10, { tolerance: 0.1 }), 'about 10.4')).pass).toBe(false);
    expect((await score(numeric(1000, { relative: 0.01 }), '1009')).pass).toBe(true);
    expect((await score(numeric(), 'no digits', 3)).reason).toMatch(/no number/);
    expect((await score(numeric(), '3', '3')).pass).toBe(true);
    expect((await score(numeric(), '3', 'three')).error).toMatch(/not a number/);
  });

  it('jsonMatch reads fenced JSON, checks a zod schema, and scores the share of fields', async () => {
    const schema = z.object({ city: z.string(), temp: z.number() });
    const fenced = 'Here:\n```json\n{"city":"Paris","temp":21,"wind":{"kmh":5}}\n```';
    expect((await score(jsonMatch({ schema, fields: { city: 'Paris', 'wind.kmh': 5 } }), fenced)).score).toBe(1);
    const wrongType = await score(jsonMatch({ schema }), '{"city":"Paris","temp":"hot"}');
    expect(wrongType.score).toBe(0);
    expect(wrongType.reason).toMatch(/temp/);
    const half = await score(jsonMatch(), '{"a":1,"b":3}', { a: 1, b: 2 });
    expect(half.score).toBe(0.5);
    expect(half.reason).toContain('b: expected 2, got 3');
    expect((await score(jsonMatch(), 'not json at all')).score).toBe(0);
  });

  it('noError passes a done run or a bare answer, and fails any other ending', async () => {
    expect((await score(noError(), 'x', undefined, run())).pass).toBe(true);
    expect((await score(noError(), 'x')).pass).toBe(true);
    const failed = await score(
      noError(),
      '',
      undefined,
      run({ status: 'max_steps', error: { code: 'max_steps', message: 'ran out' } }),
    );
    expect(failed.pass).toBe(false);
    expect(failed.reason).toBe('run ended max_steps: ran out');
  });

  it('budget scores the share of limits kept, and an unknown cost fails its limit', async () => {
    const r = run({ steps: Array.from({ length: 4 }, () => ({ kind: 'tool_calls' as const, toolCalls: [] })) });
    const within = await score(budget({ maxSteps: 5, maxTokens: 200, maxLatencyMs: 100 }), '', undefined, r);
    expect(within).toMatchObject({ score: 1, pass: true });
    const over = await score(
      budget({ maxSteps: 3, maxTokens: 200, maxCostUsd: 0.01, maxLatencyMs: 10 }),
      '',
      undefined,
      r,
    );
    expect(over.score).toBe(0.25);
    expect(over.reason).toBe('steps 4 > 3; cost $ unknown; latency ms 40 > 10');
    expect((await score(budget({ maxSteps: 1 }), 'bare')).error).toMatch(/needs the run/);
  });

  it('createScorer takes sync or async functions and bare numbers; bad scores become scorer errors', async () => {
    const sync = createScorer({ name: 'len', score: ({ output }) => (output.length < 5 ? 1 : 0) });
    expect(await applyScorer(sync, { input: '', output: 'hi' })).toEqual({ name: 'len', score: 1, pass: true });
    const partial = createScorer({ name: 'half', score: async () => ({ score: 0.5, reason: 'meh' }) });
    expect(await applyScorer(partial, { input: '', output: '' })).toEqual({
      name: 'half',
      score: 0.5,
      pass: false,
      reason: 'meh',
    });
    const out = createScorer({ name: 'bad', score: () => 7 });
    expect((await applyScorer(out, { input: '', output: '' })).error).toMatch(/0\.\.1/);
    // A scorer written by hand (not made by createScorer) may answer a bare number too.
    const byHand = { name: 'byHand', score: () => 0.25 } as unknown as Scorer;
    expect(await applyScorer(byHand, { input: '', output: '' })).toEqual({ name: 'byHand', score: 0.25, pass: false });
    const byHandAsync = { name: 'byHandAsync', score: async () => 1 } as unknown as Scorer;
    expect(await applyScorer(byHandAsync, { input: '', output: '' })).toEqual({
      name: 'byHandAsync',
      score: 1,
      pass: true,
    });
    const nan = createScorer({ name: 'nan', score: () => Number.NaN });
    expect((await applyScorer(nan, { input: '', output: '' })).error).toMatch(/0\.\.1/);
    const throws = createScorer({
      name: 'boom',
      score: () => {
        throw new Error('kaput');
      },
    });
    expect(await applyScorer(throws, { input: '', output: '' })).toEqual({
      name: 'boom',
      score: 0,
      pass: false,
      error: 'kaput',
    });
  });
});
