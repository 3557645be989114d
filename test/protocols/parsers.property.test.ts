import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ParsedStep, REPLY_HABITS } from '../../src/core/index.js';
import { MARKED_FORMATS, parseJsonAction, parseReAct, readToolCalls } from '../../src/protocols/index.js';

const corpus: { input: string }[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'protocols', 'corpus.json'), 'utf8'),
);
/**
 * CI runs a fixed seed, so a change never fails on an unrelated random find; `npm run fuzz` explores
 * with a random seed (or FUZZ_SEED to replay one) and FUZZ_SCALE times as many runs. A find made there
 * becomes a regular test.
 */
const fuzzScale = Number(process.env.FUZZ_SCALE ?? 0);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : fuzzScale ? Date.now() % 2 ** 31 : 20261201;
const scale = fuzzScale > 0 ? fuzzScale : 1;
const timeout = fuzzScale > 0 ? 600_000 : undefined;
fc.configureGlobal({ seed });
if (fuzzScale > 0) console.log(`fuzzing with seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz)`);

const parsers = [
  ['parseReAct', parseReAct],
  ['parseJsonAction', parseJsonAction],
] as const;

/** Checks the contract every parse result must keep, whatever the input. */
function assertWellFormed(step: ParsedStep, input: string): void {
  switch (step.type) {
    case 'action':
      expect(typeof step.tool).toBe('string');
      expect(step.tool.length).toBeGreaterThan(0);
      expect(step.tool.trim()).not.toBe('');
      expect(typeof step.input === 'string' || (typeof step.input === 'object' && step.input !== null)).toBe(true);
      for (const habit of step.habits ?? []) expect(REPLY_HABITS).toContain(habit);
      break;
    case 'final':
      expect(typeof step.answer).toBe('string');
      expect(step.answer.length).toBeGreaterThan(0);
      for (const habit of step.habits ?? []) expect(REPLY_HABITS).toContain(habit);
      break;
    case 'invalid':
      expect(step.raw).toBe(input);
      expect(step.reason.length).toBeGreaterThan(10);
      break;
    default:
      throw new Error(`unexpected step ${JSON.stringify(step)}`);
  }
  // Results must stay JSON-serializable: they flow into events and traces.
  expect(() => JSON.stringify(step)).not.toThrow();
}

const keyword = fc.constantFrom(
  'Thought:',
  'Action:',
  'Action Input:',
  'Observation:',
  'Final Answer:',
  '思考：',
  '行动：',
  '行动输入：',
  '观察：',
  '最终答案：',
  '**Action:**',
  '<think>',
  '</think>',
  '<tool_call>',
  '</tool_call>',
  '<function=f>',
  '```json',
  '```',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '\\',
  ':',
  '：',
  '\n',
  ' ',
  'search[',
  'f(',
  ')',
  '{"action": "a", "action_input": ',
  '{"name": "n", "arguments": ',
  'null',
  ',',
);
/** Strings built from the pieces parsers look for, so the fuzzing reaches deep paths. */
const structured = fc
  .array(fc.oneof(keyword, fc.string({ maxLength: 8 })), { maxLength: 40 })
  .map((parts) => parts.join(''));
const anyUnicode = fc.string({ unit: 'binary', maxLength: 300 });

/** A corpus entry damaged at one position: cut, a character dropped, or noise spliced in. */
const mutated = fc
  .record({
    entry: fc.integer({ min: 0, max: corpus.length - 1 }),
    at: fc.nat(),
    kind: fc.constantFrom('truncate', 'drop', 'insert'),
    noise: fc.oneof(keyword, fc.string({ unit: 'binary', maxLength: 5 })),
  })
  .map(({ entry, at, kind, noise }) => {
    const text = corpus[entry].input;
    const i = text.length === 0 ? 0 : at % text.length;
    if (kind === 'truncate') return text.slice(0, i);
    if (kind === 'drop') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + noise + text.slice(i);
  });

describe.each(parsers)('%s never throws', (_name, parse) => {
  it(
    'on arbitrary unicode strings',
    () => {
      fc.assert(
        fc.property(anyUnicode, (text) => assertWellFormed(parse(text), text)),
        { numRuns: 400 * scale },
      );
    },
    timeout,
  );

  it(
    'on strings made of keywords, tags, brackets and quotes',
    () => {
      fc.assert(
        fc.property(structured, (text) => assertWellFormed(parse(text), text)),
        { numRuns: 600 * scale },
      );
    },
    timeout,
  );

  it(
    'on mutated corpus entries',
    () => {
      fc.assert(
        fc.property(mutated, (text) => assertWellFormed(parse(text), text)),
        { numRuns: 600 * scale },
      );
    },
    timeout,
  );

  it('on non-string input from untyped callers', () => {
    for (const value of [undefined, null, 42, {}, []]) {
      expect(parse(value as unknown as string).type).toBe('invalid');
    }
  });

  it('on deeply nested and very long input, without hanging', () => {
    const nested = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const long = `Action: a\nAction Input: ${'{"k": '.repeat(2000)}1`;
    const started = Date.now();
    assertWellFormed(parse(nested), nested);
    assertWellFormed(parse(long), long);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

// readToolCalls: the one reader of calls in text, fed the markers of every format it knows.
const formatFixtures: { text: string }[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'tool-calls', 'formats.json'), 'utf8'),
);
const markers = [...MARKED_FORMATS.flatMap((f) => [...f.open, ...f.close, ...(f.separators ?? [])])];
const callPiece = fc.constantFrom(
  ...markers,
  '<|im_start|>assistant',
  '<|im_start|>',
  '\\_',
  "['",
  "']",
  '`',
  'get_weather(',
  'math.factorial(n=',
  "data['x']",
  '=',
  'True',
  'None',
  '1e3',
  '-2.5',
  '"""',
  '```python\n',
  'Note: the function is not suitable.',
  '{"tool_calls": [',
  '{"name": "get_weather", "arguments": {',
);
const callText = fc
  .array(fc.oneof(callPiece, keyword, fc.string({ maxLength: 6 })), { maxLength: 40 })
  .map((parts) => parts.join(''));
const mutatedCall = fc
  .record({
    entry: fc.integer({ min: 0, max: formatFixtures.length - 1 }),
    at: fc.nat(),
    kind: fc.constantFrom('truncate', 'drop', 'insert'),
    noise: fc.oneof(callPiece, fc.string({ unit: 'binary', maxLength: 5 })),
  })
  .map(({ entry, at, kind, noise }) => {
    const text = formatFixtures[entry].text;
    const i = text.length === 0 ? 0 : at % text.length;
    if (kind === 'truncate') return text.slice(0, i);
    if (kind === 'drop') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + noise + text.slice(i);
  });

/** What every read keeps: named calls with object, array or string inputs, known habits, plain JSON. */
function assertCallsWellFormed(text: string): void {
  const read = readToolCalls(text, { tools: ['get_weather', 'math.factorial'] });
  expect(read.calls.length).toBeLessThanOrEqual(64);
  for (const call of read.calls) {
    expect(typeof call.name).toBe('string');
    expect(call.name.trim()).not.toBe('');
    expect(typeof call.input === 'string' || (typeof call.input === 'object' && call.input !== null)).toBe(true);
  }
  for (const habit of read.habits) expect(REPLY_HABITS).toContain(habit);
  expect(() => JSON.stringify(read)).not.toThrow();
}

describe('readToolCalls never throws', () => {
  it(
    'on arbitrary unicode strings',
    () => fc.assert(fc.property(anyUnicode, assertCallsWellFormed), { numRuns: 400 * scale }),
    timeout,
  );

  it(
    'on strings made of every format’s markers, Python literals, tokens and fences',
    () => fc.assert(fc.property(callText, assertCallsWellFormed), { numRuns: 800 * scale }),
    timeout,
  );

  it(
    'on mutated examples of every format',
    () => fc.assert(fc.property(mutatedCall, assertCallsWellFormed), { numRuns: 800 * scale }),
    timeout,
  );

  it('on non-string input from untyped callers', () => {
    for (const value of [undefined, null, 42, {}, []]) {
      expect(readToolCalls(value as unknown as string).calls).toEqual([]);
    }
  });

  // Every marker and piece repeated to 100 kB, alone and with an opener left unclosed: each read ends
  // (the test's time limit is the bound; bench/parsers.bench.ts measures the throughput).
  it('on 100 kB of any one marker or piece, without hanging', () => {
    const pieces = [...new Set([...markers, '<|im_start|>', '\\_x', "['f(", '[f(a=[', 'f(a=', '{"a": ', '`'])];
    for (const piece of pieces) {
      const unit = piece.length > 0 ? piece : ' ';
      const big = unit.repeat(Math.ceil(100_000 / unit.length));
      assertCallsWellFormed(big);
      assertCallsWellFormed(`get_weather(city="Paris")\n${big}`);
      assertCallsWellFormed(`${big}[get_weather(city="`);
    }
  }, 120_000);
});
