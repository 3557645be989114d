/**
 * The share of prompt tokens served from Anthropic's prompt cache over a ten-step agent run, with
 * thinkflow's default cache breakpoints and without them, against a local Messages API server that
 * counts cache reads and writes the way the vendor documents (tools → system → messages prefixes,
 * 20-block lookback, 1024-token minimum; see test/llm/providers/anthropic-cache.ts). The run's
 * cost uses the list prices of claude-sonnet-4-5 (cache reads 0.1×, writes 1.25× the input price).
 *
 * Run: node --import tsx bench/prompt-cache.bench.ts
 */
import { z } from 'zod';
import { Agent, anthropic, defineTool, type RunResult } from '../src/index.js';
import { cacheShare } from '../src/llm/index.js';
import { startAnthropicServer } from '../test/llm/providers/anthropic-server.js';

const STEPS = 10;
const server = await startAnthropicServer({ countAllPrompts: true });

// A realistic agent: ~2,000 tokens of instructions and five tools with schemas.
const instructions = Array.from(
  { length: 60 },
  (_, i) => `Rule ${i + 1}: check every figure against two sources, cite the page, and say when the data is missing.`,
).join('\n');
const tools = ['search', 'read_page', 'calculator', 'table_lookup', 'unit_convert'].map((name) =>
  defineTool({
    name,
    description: `${name.replace('_', ' ')}: returns a few paragraphs of text for the query, with sources.`,
    input: z.object({ query: z.string().describe('What to look for, in plain words'), limit: z.number().optional() }),
    run: ({ query }) => `Results for ${query}: ${'census figures, district tables and growth rates; '.repeat(20)}`,
  }),
);

async function run(cacheControl: boolean): Promise<RunResult> {
  server.reset();
  for (let i = 1; i < STEPS; i++) {
    server.push({
      text: '',
      toolCalls: [{ id: `toolu_${i}`, name: tools[i % 5].name, arguments: `{"query":"q${i}"}` }],
    });
  }
  server.push('The answer, with sources.');
  const model = anthropic({ apiKey: 'bench', model: 'claude-sonnet-4-5', baseURL: `${server.url}/v1`, cacheControl });
  return new Agent({ model, tools, instructions, maxSteps: STEPS }).run('Compare the growth of the three districts.');
}

const on = await run(true);
const off = await run(false);
await server.close();

const row = (name: string, r: RunResult) =>
  `${name.padEnd(22)} ${String(r.steps.length).padStart(5)} ${String(r.usage.promptTokens).padStart(8)} ${String(r.usage.cacheReadTokens ?? 0).padStart(8)} ${String(r.usage.cacheWriteTokens ?? 0).padStart(8)} ${(cacheShare(r.usage) * 100).toFixed(1).padStart(7)}% $${(r.usage.costUsd ?? 0).toFixed(4)}`;
console.log(`${'run'.padEnd(22)} steps   prompt   cached  written   share   cost`);
console.log(row('cache breakpoints on', on));
console.log(row('cacheControl: false', off));
console.log(`cost with caching / without: ${((on.usage.costUsd ?? 0) / (off.usage.costUsd ?? 1)).toFixed(2)}×`);
