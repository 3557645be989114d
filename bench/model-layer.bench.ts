/**
 * Cost of the model layer's own work, measured in one run and printed as ratios:
 * - parsing an OpenAI SSE stream (JSON per line, zod check, tool-call assembly) against the floor
 *   of a bare JSON.parse per line;
 * - estimating usage with the tokenizer (when a server omits it) against JSON.stringify of the
 *   same request, and in microseconds per call.
 *
 * Run: node --import tsx bench/model-layer.bench.ts
 */
import type { Message } from '../src/core/index.js';
import { estimateCompletionTokens, estimatePromptTokens } from '../src/llm/estimate-usage.js';
import type { SseEvent } from '../src/llm/http/index.js';
import { parseOpenAIStream } from '../src/llm/providers/openai-compatible/index.js';

const ROUND_MS = 300;
const ROUNDS = 5;

function chunk(delta: Record<string, unknown>): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
  });
}

// A 600-event stream: 400 text deltas and two tool calls whose arguments arrive in 100 fragments each.
const events: SseEvent[] = [];
for (let i = 0; i < 400; i++) events.push({ data: chunk({ content: `word${i} ` }) });
for (let t = 0; t < 2; t++) {
  events.push({
    data: chunk({ tool_calls: [{ index: t, id: `call_${t}`, function: { name: 'search', arguments: '' } }] }),
  });
  for (let i = 0; i < 100; i++)
    events.push({ data: chunk({ tool_calls: [{ index: t, function: { arguments: `"k${i}":1,` } }] }) });
}
events.push({ data: '[DONE]' });

async function* from(list: SseEvent[]) {
  yield* list;
}

async function ours(): Promise<void> {
  for await (const _ of parseOpenAIStream(from(events), { provider: 'bench' }));
}

async function floor(): Promise<void> {
  for await (const event of from(events)) if (event.data !== '[DONE]') JSON.parse(event.data);
}

async function rate(run: () => Promise<void>): Promise<number> {
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0;
    const started = performance.now();
    while (performance.now() - started < ROUND_MS) {
      await run();
      n++;
    }
    best = Math.max(best, n / (performance.now() - started));
  }
  return best;
}

const messages: Message[] = [{ role: 'system', content: 'You are a helpful agent. '.repeat(20) }];
for (let i = 0; i < 10; i++) {
  messages.push({ role: 'user', content: `Question ${i}: what is the population of city number ${i}? `.repeat(5) });
  messages.push({ role: 'assistant', content: `Thought: I should look it up. Action: search ${i}`.repeat(3) });
}
const request = { messages };
const reply = { text: 'The answer is 42, according to the search results above. '.repeat(4) };

function syncRate(run: () => void): number {
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let n = 0;
    const started = performance.now();
    while (performance.now() - started < ROUND_MS) {
      run();
      n++;
    }
    best = Math.max(best, n / (performance.now() - started));
  }
  return best;
}

const loadStart = performance.now();
estimatePromptTokens({ messages: [{ role: 'user', content: 'warm up' }] });
const firstCallMs = performance.now() - loadStart;

const parseOurs = await rate(ours);
const parseFloor = await rate(floor);
const estimate = syncRate(() => {
  estimatePromptTokens(request);
  estimateCompletionTokens(reply);
});
const stringify = syncRate(() => JSON.stringify(request));

console.log(`stream parse: ${(parseOurs * 1000).toFixed(0)} streams/s (${events.length} events each)`);
console.log(
  `  vs JSON.parse-per-line floor: ${(parseFloor * 1000).toFixed(0)} streams/s → ratio ${(parseFloor / parseOurs).toFixed(2)}x slower`,
);
console.log(
  `usage estimate: ${(1000 / estimate).toFixed(1)} µs per call (prompt of ${estimatePromptTokens(request)} tokens + reply)`,
);
console.log(`  vs JSON.stringify of the request: ratio ${(stringify / estimate).toFixed(1)}x slower`);
console.log(`first estimate (after import): ${firstCallMs.toFixed(1)} ms`);
