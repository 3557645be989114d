/**
 * The long task of issue 41, side by side: read 60 documents of about 2,000 tokens (one call each),
 * then answer from all of them, with the fact at the start and then in the middle of each document.
 * Every framework talks to the same local OpenAI-compatible server and the same scripted oracle
 * (test/agent/long-task-server.ts), which reports cached tokens: the leading messages a request shares
 * with the previous one. Cost counts a cached token at 10%, as providers' prompt caches price it.
 * The budget is 24k prompt tokens.
 *
 * Run: node --import tsx bench/long-task.bench.ts
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { tool as aiTool, generateText, stepCountIs } from 'ai';
import {
  ClearToolUsesEdit,
  contextEditingMiddleware,
  createAgent,
  tool as langchainTool,
  summarizationMiddleware,
} from 'langchain';
import { z } from 'zod';
import { Agent, type AgentOptions, defineTool, openaiCompatible } from '../src/index.js';
import {
  DOCUMENTS,
  documentText,
  expectedSum,
  type FactPlace,
  QUESTION,
  startLongTaskServer,
} from '../test/agent/long-task-server.js';

const BUDGET = 24_000;
const server = await startLongTaskServer();
const { baseURL } = server;
const read = (place: FactPlace) => (id: string) => {
  const k = Number(/doc-(\d+)/.exec(id)?.[1]);
  return k >= 1 && k <= DOCUMENTS ? documentText(k, place) : `No document ${id}.`;
};

async function thinkflow(
  place: FactPlace,
  context: AgentOptions['context'],
  observationLimit?: number,
): Promise<string> {
  const readDocument = defineTool({
    name: 'read_document',
    description: 'Returns the text of one document.',
    input: z.object({ id: z.string().describe('The document id, e.g. doc-1') }),
    run: ({ id }) => read(place)(id),
  });
  const model = openaiCompatible({ baseURL, apiKey: 'bench', model: 'oracle' });
  const cheap = openaiCompatible({ baseURL, apiKey: 'bench', model: 'oracle-mini' });
  const agent = new Agent({
    model,
    tools: [readDocument],
    maxSteps: 200,
    context,
    models: { cheap },
    observationLimit,
  });
  return (await agent.run(QUESTION)).output;
}

async function aiSdk(place: FactPlace): Promise<string> {
  const provider = createOpenAICompatible({ name: 'oracle', baseURL, apiKey: 'bench' });
  const result = await generateText({
    model: provider.chatModel('oracle'),
    tools: {
      read_document: aiTool({
        description: 'Returns the text of one document.',
        inputSchema: z.object({ id: z.string().describe('The document id, e.g. doc-1') }),
        execute: async ({ id }) => read(place)(id),
      }),
    },
    stopWhen: stepCountIs(200),
    prompt: QUESTION,
  });
  return result.text;
}

async function langchain(place: FactPlace, kind: 'summarization' | 'clear'): Promise<string> {
  const model = new ChatOpenAI({ model: 'oracle', apiKey: 'bench', configuration: { baseURL } });
  const readDocument = langchainTool(async ({ id }: { id: string }) => read(place)(id), {
    name: 'read_document',
    description: 'Returns the text of one document.',
    schema: z.object({ id: z.string().describe('The document id, e.g. doc-1') }),
  });
  const middleware =
    kind === 'summarization'
      ? summarizationMiddleware({ model, trigger: { tokens: BUDGET } })
      : contextEditingMiddleware({ edits: [new ClearToolUsesEdit({ trigger: { tokens: BUDGET } })] });
  const agent = createAgent({ model, tools: [readDocument], middleware: [middleware] });
  const state = await agent.invoke({ messages: [{ role: 'user', content: QUESTION }] }, { recursionLimit: 500 });
  const last = state.messages.at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
}

interface Row {
  name: string;
  answer: string;
  prompt: number;
  uncached: number;
  cost: number;
  largest: number;
  calls: number;
}

async function measure(name: string, run: () => Promise<string>): Promise<Row> {
  server.reset();
  let answer: string;
  try {
    answer = (await run()).includes(String(expectedSum())) ? 'right' : 'wrong';
  } catch (error) {
    answer = `failed: ${error instanceof Error ? error.message.slice(0, 60) : String(error)}`;
  }
  const prompt = server.requests.reduce((n, r) => n + r.promptTokens, 0);
  const cached = server.requests.reduce((n, r) => n + r.cachedTokens, 0);
  const largest = Math.max(...server.requests.map((r) => r.promptTokens));
  return {
    name,
    answer,
    prompt,
    uncached: prompt - cached,
    cost: prompt - cached + 0.1 * cached,
    largest,
    calls: server.requests.length,
  };
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(0)}%`.padStart(5);
for (const place of ['start', 'middle'] as const) {
  const rows: Row[] = [];
  rows.push(await measure('thinkflow, no compaction', () => thinkflow(place, { compaction: false })));
  rows.push(
    await measure('thinkflow, summaries only, cut at 4,000', () =>
      thinkflow(place, { budgetTokens: BUDGET, compaction: { clear: false, at: 1, to: 0.75 } }, 4000),
    ),
  );
  rows.push(
    await measure('thinkflow, compaction, cut at 4,000', () => thinkflow(place, { budgetTokens: BUDGET }, 4000)),
  );
  rows.push(await measure('thinkflow, compaction (default)', () => thinkflow(place, { budgetTokens: BUDGET })));
  rows.push(await measure('AI SDK default (full history)', () => aiSdk(place)));
  rows.push(await measure('LangChain summarizationMiddleware', () => langchain(place, 'summarization')));
  rows.push(await measure('LangChain ClearToolUsesEdit', () => langchain(place, 'clear')));
  const base = rows[0];
  console.log(`\nfact at the ${place} of each document (budget ${BUDGET}; % of thinkflow's no-compaction run)`);
  console.log(
    `${'run'.padEnd(42)} answer calls ${'prompt'.padStart(9)}   %  ${'uncached'.padStart(9)} ${'cost'.padStart(9)}   %  largest`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(42)} ${r.answer.padEnd(6)} ${String(r.calls).padStart(5)} ${String(r.prompt).padStart(9)} ${pct(r.prompt, base.prompt)} ${String(r.uncached).padStart(9)} ${String(Math.round(r.cost)).padStart(9)} ${pct(r.cost, base.cost)} ${String(r.largest).padStart(8)}`,
    );
  }
}
await server.close();
