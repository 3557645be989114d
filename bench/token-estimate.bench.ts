/**
 * How close the token estimators come, and what they cost to load, measured in one run:
 * - against the usage numbers providers reported in the recorded fixtures (test/fixtures/<vendor>/):
 *   completion tokens reported vs. estimated from the visible reply (reasoning included);
 * - against exact o200k counts (gpt-tokenizer) on the 166 real model replies of
 *   test/fixtures/protocols/corpus.json: mean and worst per-reply error, and the error on the sum;
 * - the time to load each candidate in a fresh process.
 * Candidates: tokenx (2 kB heuristic, the default), chars/4, and gpt-tokenizer (exact o200k, optional peer).
 *
 * Run: node --import tsx bench/token-estimate.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens as exactO200k } from 'gpt-tokenizer';
import { estimateTokenCount } from 'tokenx';

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures');
const candidates: Record<string, (text: string) => number> = {
  tokenx: (text) => estimateTokenCount(text),
  'chars/4': (text) => Math.ceil(text.length / 4),
  'gpt-tokenizer': (text) => exactO200k(text),
};

/** The text a reply showed (content, reasoning, tool names and arguments) and the completion tokens reported. */
function visibleReply(file: string): { text: string; reported: number } | undefined {
  const raw = readFileSync(file, 'utf8');
  const fields = /"(?:content|reasoning_content|text|thinking|partial_json|arguments|name)":\s*"((?:[^"\\]|\\.)*)"/g;
  let text = '';
  for (const match of raw.matchAll(fields)) text += JSON.parse(`"${match[1]}"`);
  const input = raw.match(/"input":\s*(\{[^}]*\})/);
  if (input) text += input[1];
  const reported = [...raw.matchAll(/"(?:completion_tokens|output_tokens|eval_count)":\s*(\d+)/g)].map((m) =>
    Number(m[1]),
  );
  if (reported.length === 0 || !text) return undefined;
  return { text, reported: Math.max(...reported) };
}

console.log('Reported completion tokens vs. estimates from the visible reply (recorded fixtures):');
for (const vendor of readdirSync(FIXTURES)) {
  if (vendor === 'protocols' || vendor === 'memory' || vendor === 'mcp') continue;
  for (const name of readdirSync(join(FIXTURES, vendor))) {
    const reply = visibleReply(join(FIXTURES, vendor, name));
    if (!reply) continue;
    const row = Object.entries(candidates).map(([label, count]) => `${label} ${count(reply.text)}`);
    console.log(`  ${vendor}/${name}: reported ${reply.reported}; ${row.join(', ')}`);
  }
}

const corpus: { input: string }[] = JSON.parse(readFileSync(join(FIXTURES, 'protocols', 'corpus.json'), 'utf8'));
const texts = corpus.map((entry) => entry.input);
const exact = texts.map((text) => exactO200k(text));
const exactSum = exact.reduce((a, b) => a + b, 0);
console.log(`\nAgainst exact o200k on ${texts.length} real model replies (${exactSum} tokens):`);
for (const [label, count] of Object.entries(candidates)) {
  if (label === 'gpt-tokenizer') continue;
  const errors = texts.map((text, i) => Math.abs(count(text) - exact[i]) / Math.max(1, exact[i]));
  const sum = texts.reduce((total, text) => total + count(text), 0);
  const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
  const sorted = [...errors].sort((a, b) => a - b);
  const p90 = sorted[Math.floor(sorted.length * 0.9)];
  console.log(
    `  ${label.padEnd(8)} mean error ${(mean * 100).toFixed(1)}%, p90 ${(p90 * 100).toFixed(1)}%, on the sum ${(((sum - exactSum) / exactSum) * 100).toFixed(1)}%`,
  );
}

function loadMs(code: string): number {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    runs.push(Number(out));
  }
  return runs.sort((a, b) => a - b)[2];
}
const timed = (body: string) =>
  `const t = performance.now(); ${body}; process.stdout.write(String(performance.now() - t));`;
const baseline = loadMs(timed('await import("node:path")'));
const tokenxMs = loadMs(
  timed('const { estimateTokenCount } = await import("tokenx"); estimateTokenCount("hello world")'),
);
const exactMs = loadMs(timed('const { countTokens } = await import("gpt-tokenizer"); countTokens("hello world")'));
console.log(
  `\nLoad and first count, median of 5 fresh processes: tokenx ${tokenxMs.toFixed(1)} ms, gpt-tokenizer ${exactMs.toFixed(1)} ms (${(exactMs / tokenxMs).toFixed(0)}× tokenx; node:path ${baseline.toFixed(1)} ms)`,
);
