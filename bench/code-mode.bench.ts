/**
 * Code mode against plain tool calls: 20 price lookups and then their sum, answered by a scripted
 * oracle model behind a local OpenAI-compatible server (chat completions over HTTP on 127.0.0.1),
 * once with one JSON tool call per turn and once with `codeMode` (one program that does every lookup).
 * The server counts each request's prompt tokens from what the client sent (messages and tools), as
 * a vendor bills them. Then the sandbox alone: its warm start-up, and the cost of one tool call
 * crossing the boundary (a program of 2,000 sequential calls against one of none).
 *
 * Run: node --import tsx bench/code-mode.bench.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { codeMode, DEFAULT_BUDGETS, quickJsSandbox, runProgram } from '../src/code/index.js';
import { Agent, defineTool, openaiCompatible } from '../src/index.js';
import { countTokens } from '../src/llm/index.js';

const ITEMS = Array.from({ length: 20 }, (_, i) => `item-${String(i + 1).padStart(2, '0')}`);
const PRICE = (item: string) => Number(item.slice(5)) * 3 + 1;

const lookup = defineTool({
  name: 'lookup_price',
  description: 'The price of one catalogue item, in cents.',
  input: z.object({ item: z.string().describe('Catalogue id, e.g. item-01') }),
  output: z.object({ item: z.string(), cents: z.number() }),
  run: ({ item }) => ({ item, cents: PRICE(item) }),
});
const add = defineTool({
  name: 'add_numbers',
  description: 'Adds a list of numbers.',
  input: z.object({ numbers: z.array(z.number()) }),
  run: ({ numbers }) => numbers.reduce((a, b) => a + b, 0),
});

const PROGRAM = `const items = ${JSON.stringify(ITEMS)};
const prices = await Promise.all(items.map((item) => tools.lookup_price({ item })));
return prices.reduce((sum, p) => sum + p.cents, 0);`;

type Message = { role: string; content?: string | null };

/** The oracle: what a capable model would say next, read from the conversation so far. */
function oracle(messages: Message[], codeMode: boolean) {
  const results = messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
  if (codeMode) {
    if (results.length === 0) return { call: { name: 'run_code', args: { code: PROGRAM } } };
    return { text: `The 20 items cost ${results[0].replace('Returned: ', '')} cents in all.` };
  }
  if (results.length < ITEMS.length) return { call: { name: 'lookup_price', args: { item: ITEMS[results.length] } } };
  if (results.length === ITEMS.length) {
    const cents = results.map((r) => (JSON.parse(r) as { cents: number }).cents);
    return { call: { name: 'add_numbers', args: { numbers: cents } } };
  }
  return { text: `The 20 items cost ${results.at(-1)} cents in all.` };
}

/** A chat-completions server for one mode; counts calls and billed prompt tokens. */
async function startOracle(codeMode: boolean) {
  const stats = { calls: 0, promptTokens: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = JSON.parse(body) as { messages: Message[]; tools?: unknown[] };
      const prompt = countTokens(JSON.stringify(request.messages) + JSON.stringify(request.tools ?? []));
      stats.calls += 1;
      stats.promptTokens += prompt;
      const next = oracle(request.messages, codeMode);
      const message = next.call
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${stats.calls}`,
                type: 'function',
                function: { name: next.call.name, arguments: JSON.stringify(next.call.args) },
              },
            ],
          }
        : { role: 'assistant', content: next.text };
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: `chatcmpl-${stats.calls}`,
          object: 'chat.completion',
          created: 1_764_400_000,
          model: 'oracle',
          choices: [{ index: 0, message, finish_reason: next.call ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  return { url, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function measure(mode: 'json' | 'code') {
  const oracleServer = await startOracle(mode === 'code');
  const model = openaiCompatible({ baseURL: oracleServer.url, apiKey: 'bench', model: 'oracle' });
  const tools = mode === 'code' ? [codeMode([lookup, add])] : [lookup, add];
  const agent = new Agent({ model, tools, maxSteps: 30, streaming: false });
  const began = performance.now();
  const result = await agent.run('What do items 01 to 20 cost together?');
  const wallMs = performance.now() - began;
  await oracleServer.close();
  return { ...oracleServer.stats, wallMs, answer: result.output, status: result.status };
}

// Warm up once (module loads, the WebAssembly compile), then measure.
await measure('code');
const json = await measure('json');
const code = await measure('code');

console.log(`${'mode'.padEnd(22)} model calls  prompt tokens  wall ms  answer`);
for (const [name, r] of [
  ['JSON tool calls', json],
  ['code mode (run_code)', code],
] as const) {
  console.log(
    `${name.padEnd(22)} ${String(r.calls).padStart(11)}  ${String(r.promptTokens).padStart(13)}  ${r.wallMs.toFixed(0).padStart(7)}  ${r.answer}`,
  );
}
console.log(
  `code mode: ${((1 - code.calls / json.calls) * 100).toFixed(0)}% fewer model calls, ${((1 - code.promptTokens / json.promptTokens) * 100).toFixed(0)}% fewer prompt tokens, same answer: ${code.answer === json.answer}`,
);

// The sandbox alone.
const sandbox = quickJsSandbox();
const budgets = { ...DEFAULT_BUDGETS, maxToolCalls: 10_000 };
const program = (code: string) =>
  runProgram({ code, sandbox, budgets, tools: ['noop'], call: async () => 1, seed: 1, clock: 0 });
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let i = 0; i < 20; i++) await program('return 1');
const startups: number[] = [];
const empties: number[] = [];
for (let i = 0; i < 50; i++) {
  const began = performance.now();
  const result = await program('return 1');
  empties.push(performance.now() - began);
  startups.push(result.startupMs);
}
const CALLS = 2000;
const loop = `let n = 0; for (let i = 0; i < ${CALLS}; i++) n += await tools.noop({ i }); return n`;
await program(loop);
const loops: number[] = [];
for (let i = 0; i < 7; i++) {
  const began = performance.now();
  await program(loop);
  loops.push(performance.now() - began);
}
const perCallMs = (median(loops) - median(empties)) / CALLS;
console.log(
  `sandbox start-up (fresh QuickJS runtime and context, warm): median ${median(startups).toFixed(2)} ms; a whole empty program ${median(empties).toFixed(2)} ms`,
);
console.log(
  `one tool call crossing the sandbox boundary: ${(perCallMs * 1000).toFixed(1)} µs (median of 7 programs of ${CALLS} calls)`,
);
