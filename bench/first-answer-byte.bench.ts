/**
 * How long after a model writes the first delta of an answer does an HTTP client get it? A local
 * OpenAI-compatible server streams an answer in four deltas (100 ms apart); an in-process `thinkflow
 * serve` (SQLite store) runs a native and a ReAct agent on it, and the official `openai` client streams
 * `/v1/chat/completions`. Measured: from the model server's write of the delta that holds the answer's
 * first word to the client's first content chunk. Deltas are written with the space after each word
 * (`"The "`) and with the space before it (`"The"`, `" answer"`), as most tokenizers do: a word at the
 * end of what arrived goes at once unless it may begin a key (`sk`, `Bear`), which waits for the next.
 *
 *   node --import tsx bench/first-answer-byte.bench.ts [--runs 8]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { Agent, openaiCompatible } from '../src/index.js';
import { serve } from '../src/server/index.js';

const at = process.argv.indexOf('--runs');
const RUNS = at >= 0 ? Number(process.argv[at + 1]) : 8;
const PAUSE_MS = 100;
const SHAPES = {
  'space after': ['The ', 'answer ', 'is ', '42.'],
  'space before': ['The', ' answer', ' is', ' 42.'],
};
type Shape = keyof typeof SHAPES;

let shape: Shape = 'space after';
let firstAnswerDelta = 0;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const model = createServer(async (req, res) => {
  let body = '';
  for await (const piece of req) body += piece;
  const react = body.includes('Final Answer');
  const deltas = [...SHAPES[shape]];
  if (react) deltas[0] = `Thought: I know this one.\nFinal Answer: ${deltas[0]}`;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const [i, delta] of deltas.entries()) {
    res.write(chunk(i === 0 ? { role: 'assistant', content: delta } : { content: delta }));
    if (i === 0) firstAnswerDelta = performance.now();
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  res.write(chunk({}, 'stop'));
  res.write(
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
});
await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
const llm = () => openaiCompatible({ baseURL: modelUrl, model: 'm', apiKey: 'none' });

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-first-byte-'));
const server = await serve({
  port: 0,
  dataDir: dir,
  log: () => {},
  config: {
    agents: {
      native: () => new Agent({ model: llm() }),
      react: () => new Agent({ protocol: 'react', model: llm() }),
    },
  },
});
const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'none', maxRetries: 0 });

/** Milliseconds from the model's first answer delta to the client's first content. */
async function once(agent: string): Promise<number> {
  const stream = await client.chat.completions.create({
    model: agent,
    messages: [{ role: 'user', content: 'What is the answer?' }],
    stream: true,
  });
  let first = 0;
  for await (const part of stream) if (!first && part.choices[0]?.delta.content) first = performance.now();
  return first - firstAnswerDelta;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
await once('native'); // warm up: modules, the store, the first HTTP connections
for (const name of Object.keys(SHAPES) as Shape[]) {
  shape = name;
  for (const agent of ['native', 'react']) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await once(agent));
    const fmt = (v: number) => `${v.toFixed(1)} ms`;
    console.log(
      `${agent.padEnd(6)} ${name.padEnd(12)} first answer byte after the model's first answer delta: p50 ${fmt(quantile(times, 0.5))}, p90 ${fmt(quantile(times, 0.9))}, max ${fmt(Math.max(...times))} (${RUNS} runs; deltas ${PAUSE_MS} ms apart)`,
    );
  }
}
await server.close();
model.close();
rmSync(dir, { recursive: true, force: true });
