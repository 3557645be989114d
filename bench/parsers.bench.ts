/**
 * Parse accuracy and throughput on the corpus of real model outputs
 * (test/fixtures/protocols/corpus.json), measured in one run: the share of replies read as the corpus
 * expects (overall and per habit class), then replies per second for each parser on its own entries,
 * on every entry (robustness path: the "wrong" format), and against a naive JSON.parse baseline,
 * printed as ratios.
 *
 * Run: node --import tsx bench/parsers.bench.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonAction, parseReAct, readToolCalls } from '../src/protocols/index.js';

interface Entry {
  id: string;
  parser: 'react' | 'json';
  habit?: string;
  input: string;
  expected: { type: string; tool?: string; input?: unknown; answer?: string };
}

const corpus: Entry[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'protocols', 'corpus.json'), 'utf8'),
);
const react = corpus.filter((e) => e.parser === 'react').map((e) => e.input);
const json = corpus.filter((e) => e.parser === 'json').map((e) => e.input);
const all = corpus.map((e) => e.input);
const formats: string[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'tool-calls', 'formats.json'), 'utf8'),
).map((e: { text: string }) => e.text);
const kb100 = (unit: string) => unit.repeat(Math.ceil(100_000 / unit.length));
const big = [
  `${kb100('The weather in Paris is mild today. ')}\n[get_weather(city="Paris")]`,
  kb100('[f('),
  kb100('<tool_call>{"name": "a", "arguments": {"x": "'),
  kb100('get_weather(city="'),
  kb100('{"name": "'),
];
const parsers = { react: parseReAct, json: parseJsonAction };
const ROUNDS = 7;

/** Read as expected: the same kind of step, and the same tool and input, or the same answer. */
function readsAsExpected(entry: Entry): boolean {
  const step = parsers[entry.parser](entry.input) as Record<string, unknown>;
  const want = entry.expected;
  if (step.type !== want.type) return false;
  if (want.type === 'action') {
    return step.tool === want.tool && JSON.stringify(step.input) === JSON.stringify(want.input);
  }
  return want.type === 'final' ? step.answer === want.answer : true;
}

function accuracy(entries: Entry[]): string {
  const read = entries.filter(readsAsExpected).length;
  return `${((100 * read) / entries.length).toFixed(1)}% (${read}/${entries.length})`;
}
const ROUND_MS = 250;

/**
 * Replies per second for `parse` over `inputs`: the best of several short rounds, interleaved with
 * the other rows, so that load from other processes on a shared machine skews every row alike.
 */
function measure(parse: (text: string) => unknown, inputs: string[]): number {
  let replies = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS) {
    for (const text of inputs) parse(text);
    replies += inputs.length;
    elapsed = performance.now() - started;
  }
  return (replies / elapsed) * 1000;
}

/** The cheapest possible "parser": JSON.parse in a try, the floor any real parser is compared to. */
function naiveJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const avgChars = (inputs: string[]) => Math.round(inputs.reduce((n, t) => n + t.length, 0) / inputs.length);
const cases: [string, (text: string) => unknown, string[]][] = [
  ['parseReAct on ReAct entries', parseReAct, react],
  ['parseJsonAction on JSON entries', parseJsonAction, json],
  ['parseReAct on all entries', parseReAct, all],
  ['parseJsonAction on all entries', parseJsonAction, all],
  ['naive JSON.parse on JSON entries', naiveJson, json],
  ['readToolCalls on all entries', (t) => readToolCalls(t), all],
  ['readToolCalls on the format fixtures', (t) => readToolCalls(t), formats],
  // 100 kB replies: prose, a call at the very end, and adversarial openers that never close.
  ['parseReAct on 100 kB replies', parseReAct, big],
  ['parseJsonAction on 100 kB replies', parseJsonAction, big],
  ['readToolCalls on 100 kB replies', (t) => readToolCalls(t, { tools: ['get_weather'] }), big],
];
for (const [, parse, inputs] of cases) for (const text of inputs) parse(text); // warm-up
const best = cases.map(() => 0);
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach(([, parse, inputs], i) => {
    best[i] = Math.max(best[i], measure(parse, inputs));
  });
}
const rows = cases.map(([name, , inputs], i) => [name, best[i], avgChars(inputs)] as const);

console.log(`corpus: ${corpus.length} replies (${react.length} ReAct, ${json.length} JSON)\n`);
console.log(`read as expected: ${accuracy(corpus)}`);
const habits = [...new Set(corpus.map((e) => e.habit).filter((h): h is string => h !== undefined))];
for (const habit of habits) {
  console.log(`  ${habit.padEnd(22)} ${accuracy(corpus.filter((e) => e.habit === habit))}`);
}
console.log('');
for (const [name, perSecond, chars] of rows) {
  console.log(
    `${name.padEnd(36)} ${Math.round(perSecond).toLocaleString('en').padStart(10)} replies/s  (avg ${chars} chars)`,
  );
}
const [reactOwn, jsonOwn, , , naive] = rows.map((r) => r[1]);
console.log(`\nparseJsonAction / parseReAct (own entries): ${(jsonOwn / reactOwn).toFixed(2)}x`);
console.log(
  `naive JSON.parse / parseJsonAction:          ${(naive / jsonOwn).toFixed(1)}x faster, reading only ${json.filter((t) => naiveJson(t) !== undefined).length}/${json.length} JSON entries`,
);
console.log(
  `one parse costs ${(1e6 / reactOwn).toFixed(1)} µs (ReAct) and ${(1e6 / jsonOwn).toFixed(1)} µs (JSON): negligible next to a model call`,
);
