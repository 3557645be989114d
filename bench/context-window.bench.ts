/**
 * A 60-step scripted run, with the step groups built the way the loop builds them (an assistant
 * tool-call message plus its tool results, with observation sizes of real tools), projected
 * through the context window each call versus sent as the naive full history.
 *
 * Run: node --import tsx bench/context-window.bench.ts
 */
import { countTokens } from 'gpt-tokenizer';
import { contentText, type Message, mulberry32 } from '../src/core/index.js';
import { scriptedModel } from '../src/llm/index.js';
import { createContextWindow, defaultBudgetFor } from '../src/memory/index.js';

const STEPS = 60;
const model = scriptedModel(
  (request) =>
    `Earlier: the agent searched and read ${request.messages.length} messages of sources about the question; key numbers noted.`,
  { contextWindow: 32_000 },
);
const budget = defaultBudgetFor(model)!;

// Deterministic pseudo-random sizes (mulberry32) so every run measures the same script.
const random = mulberry32(42);
const vocabulary = 'the city population census river museum report year growth district data table source page'.split(
  ' ',
);
const text = (chars: number) => {
  let out = '';
  while (out.length < chars) out += `${vocabulary[Math.floor(random() * vocabulary.length)]} `;
  return out.slice(0, chars);
};
// Observation sizes of real tools: a search (~2 KB), a page fetch (~6-12 KB), a calculator (tiny), a file read (~4 KB).
const tools = [
  { name: 'web_search', size: () => 1500 + random() * 1000 },
  { name: 'fetch_page', size: () => 6000 + random() * 6000 },
  { name: 'calculator', size: () => 20 },
  { name: 'read_file', size: () => 3000 + random() * 2000 },
];

const head: Message[] = [
  { role: 'system', content: `You are a research agent. Use the tools, then answer.\n${text(1500)}` },
  {
    role: 'user',
    content: 'Compare the population growth of the ten largest cities since 1990 and explain the causes.',
  },
];
const groups: Message[][] = [];
const context = createContextWindow({
  budgetTokens: budget,
  observationLimit: 4000,
  summarize: async (messages, signal) => (await model.generate({ messages, signal })).text,
});
const tokens = (messages: Message[]) =>
  messages.reduce(
    (n, m) =>
      n +
      4 +
      countTokens(contentText(m.content)) +
      (m.role === 'assistant' ? (m.toolCalls ?? []).reduce((k, c) => k + 4 + countTokens(c.arguments), 0) : 0),
    0,
  );

const naive: number[] = [];
const managed: number[] = [];
let summaries = 0;
let fitMs = 0;
for (let i = 0; i < STEPS; i++) {
  naive.push(tokens([...head, ...groups.flat()]));
  const started = performance.now();
  const fit = await context.fit({ head, groups });
  fitMs += performance.now() - started;
  if (fit.summary) summaries++;
  managed.push(tokens(fit.messages));
  // The model's reply for step i, and its observation: the next group.
  const tool = tools[i % tools.length];
  const id = `call_${i}`;
  groups.push([
    {
      role: 'assistant',
      content: `Thought: step ${i}, checking ${tool.name}.`,
      toolCalls: [{ id, name: tool.name, arguments: `{"query":"step ${i}"}` }],
    },
    { role: 'tool', toolCallId: id, name: tool.name, content: text(tool.size()) },
  ]);
}

const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const max = (xs: number[]) => Math.max(...xs);
const over = naive.filter((n) => n > budget).length;
console.log(`context window: ${STEPS} model calls, budget ${budget} tokens (32k window)`);
console.log(
  `naive full history : total ${total(naive)} prompt tokens, max ${max(naive)} per call, ${over} calls over budget`,
);
console.log(
  `context window     : total ${total(managed)} prompt tokens, max ${max(managed)} per call, ${managed.filter((n) => n > budget).length} calls over budget`,
);
console.log(
  `ratio naive/managed: ${(total(naive) / total(managed)).toFixed(2)}x total, ${(max(naive) / max(managed)).toFixed(2)}x max`,
);
console.log(`summaries written  : ${summaries}; fit() mean ${(fitMs / STEPS).toFixed(2)} ms per call`);
console.log(`curve (every 6th call) naive  : ${naive.filter((_, i) => i % 6 === 5).join(' ')}`);
console.log(`curve (every 6th call) managed: ${managed.filter((_, i) => i % 6 === 5).join(' ')}`);
