/**
 * What observability costs per run, measured in one process:
 * - a 5-step agent run (four tool calls, then the answer) with an instant scripted model, without and
 *   with a JSONL trace file (synchronous append + secret redaction of every event);
 * - a model call answered by cachedModel from SQLite versus the same scripted call uncached;
 * - renderTimeline and renderHtml on a 5-step trace.
 *
 * Run: node --import tsx bench/trace.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../src/agent/index.js';
import { cachedModel } from '../src/cache/index.js';
import { SqliteCacheStore } from '../src/cache/node.js';
import type { AgentEvent, ModelResponse } from '../src/core/index.js';
import { scriptedModel } from '../src/llm/index.js';
import { defineTool } from '../src/tools/index.js';
import { createTraceWriter, readTrace, redactedJson, renderHtml, renderTimeline } from '../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-bench-trace-'));
const echo = defineTool({
  name: 'echo',
  description: 'Echo.',
  input: z.object({ n: z.number() }),
  run: ({ n }) => `n=${n}`,
});
const replies: ModelResponse[] = [
  ...[1, 2, 3, 4].map((n) => ({
    text: `Step ${n}.`,
    toolCalls: [{ id: `c${n}`, name: 'echo', arguments: `{"n":${n}}` }],
    usage: { promptTokens: 100 * n, completionTokens: 10 },
  })),
  { text: 'Done.', usage: { promptTokens: 500, completionTokens: 5 } },
];

async function runs(count: number, traceFile?: string): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const agent = new Agent({
      model: scriptedModel(replies),
      tools: [echo],
      protocol: 'native',
      streaming: false,
      traceFile,
    });
    await agent.run('go');
  }
  return (performance.now() - start) / count;
}

async function calls(count: number, cached: boolean): Promise<number> {
  const store = new SqliteCacheStore(join(dir, 'cache.sqlite'));
  const inner = scriptedModel(() => 'The answer is 42.');
  const model = cached ? cachedModel(inner, { store }) : inner;
  const request = { messages: [{ role: 'user' as const, content: 'x'.repeat(2000) }] };
  await model.generate(request);
  const start = performance.now();
  for (let i = 0; i < count; i++) await model.generate(request);
  store.close();
  return (performance.now() - start) / count;
}

await runs(50);
await runs(50, join(dir, 'warm.jsonl'));
// Interleaved rounds, so a load spike on a shared machine hits both sides alike.
let plain = 0;
let traced = 0;
for (let round = 0; round < 4; round++) {
  plain += (await runs(100)) / 4;
  traced += (await runs(100, join(dir, 'run.jsonl'))) / 4;
}
const direct = await calls(5000, false);
const hit = await calls(5000, true);
const all = readTrace(join(dir, 'run.jsonl'));
const perRun = all.slice(0, all.findIndex((e) => e.type === 'run_end') + 1);
let t = performance.now();
for (let i = 0; i < 300; i++) for (const e of perRun) redactedJson(e);
const redaction = (performance.now() - t) / 300;
t = performance.now();
for (let i = 0; i < 300; i++) {
  const writer = createTraceWriter(join(dir, 'writer.jsonl'));
  for (const e of perRun) writer.write(e);
  writer.close();
}
const writing = (performance.now() - t) / 300;
const events: AgentEvent[] = perRun;
t = performance.now();
for (let i = 0; i < 500; i++) renderTimeline(events);
const timeline = (performance.now() - t) / 500;
t = performance.now();
for (let i = 0; i < 500; i++) renderHtml(events);
const html = (performance.now() - t) / 500;
rmSync(dir, { recursive: true, force: true });

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
console.log(`5-step run, no trace:         ${us(plain)} per run`);
console.log(`5-step run, JSONL trace:      ${us(traced)} per run  (${(traced / plain).toFixed(2)}× the untraced run)`);
console.log(
  `  of which the writer alone:   ${us(writing)} per run (${perRun.length} events; redaction ${us(redaction)}, the rest is open/append/close)`,
);
console.log(`model call, scripted:         ${us(direct)} per call`);
console.log(`model call, SQLite cache hit: ${us(hit)} per call  (+${us(hit - direct)} for key hashing and lookup)`);
console.log(`renderTimeline, 5 steps:      ${us(timeline)}`);
console.log(`renderHtml, 5 steps:          ${us(html)}`);
