/**
 * One app, run unchanged on every runtime of the matrix (bundled once by esbuild for the browser
 * platform): an agent with a zod tool on `openaiCompatible` streaming from a local OpenAI-compatible
 * server, a json-protocol agent, a workflow that suspends and resumes on the memory store, and the
 * HTTP API's fetch handler answering the official OpenAI client (served where the runtime can serve),
 * and code mode: an agent whose program, run in QuickJS, calls two tools; and a virtual workspace
 * (just-bash) running shell tools over a Chinese CSV, with a snapshot, a diff and a restore.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { memorySessionStore } from '../../../src/entries/memory.js';
import { createApp, memoryRunStore } from '../../../src/entries/server-fetch.js';
import { createStep, createWorkflow, memoryWorkflowStore } from '../../../src/entries/workflow.js';
import { Agent, type AgentEvent, defineTool, openaiCompatible } from '../../../src/index.js';
import { type CodeReport, type CodeSetup, runCodePart } from './code-scenario.js';
import { runWorkspacePart, type WorkspaceReport } from './workspace-scenario.js';

/** What the scenario saw, compared by the test across runtimes. */
export interface ScenarioReport {
  tool: { status: string; output: string; deltas: number; toolOutput: string; error?: string };
  json: { status: string; output: string; protocol: string };
  workflow: { first: string; payload: unknown; second: string; output: unknown };
  handler: { served: boolean; answer: string | null; streamed: string; foreignHost: number };
  code: CodeReport;
  workspace: WorkspaceReport;
}

/** Serves a fetch handler on a port (`Bun.serve`, `Deno.serve`); absent where the runtime cannot. */
export type Serve = (
  fetch: (request: Request) => Promise<Response>,
) => Promise<{ url: string; close(): Promise<void> }>;

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string().describe('City name, e.g. Paris') }),
  run: async ({ city }) => ({ city, tempC: 21, sky: 'clear' }),
});

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/**
 * Runs the parts against the OpenAI-compatible server at `baseURL` (`http://127.0.0.1:PORT`). `code` says
 * how the app gets QuickJS where thinkflow cannot load it by itself (a browser, a Worker).
 */
export async function runScenario(baseURL: string, serve?: Serve, code?: CodeSetup): Promise<ScenarioReport> {
  const model = openaiCompatible({ baseURL: `${baseURL}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' });

  const toolAgent = new Agent({ model, tools: [weather], instructions: 'Answer in one sentence.', maxSteps: 5 });
  const events = await drain(toolAgent.stream('What is the weather in Paris?'));
  const end = events.find((e) => e.type === 'run_end');
  const toolEnd = events.find((e) => e.type === 'tool_end');
  const tool = {
    status: end?.type === 'run_end' ? end.status : 'none',
    output: end?.type === 'run_end' ? end.output : '',
    deltas: events.filter((e) => e.type === 'model_delta').length,
    toolOutput: toolEnd?.type === 'tool_end' ? toolEnd.output : '',
    error: end?.type === 'run_end' ? end.error?.message : undefined,
  };

  const jsonAgent = new Agent({ model, tools: [weather], protocol: 'json', maxSteps: 3 });
  const jsonEvents: AgentEvent[] = [];
  const jsonResult = await jsonAgent.run('Say hello.', { onEvent: (e) => jsonEvents.push(e) });
  const start = jsonEvents.find((e) => e.type === 'run_start');
  const json = {
    status: jsonResult.status,
    output: jsonResult.output,
    protocol: start?.type === 'run_start' ? start.protocol : '',
  };

  const review = createStep({
    id: 'review',
    input: z.string(),
    output: z.string(),
    resumeSchema: z.object({ approved: z.boolean() }),
    run: (draft, ctx) => {
      if (!ctx.resumeData) ctx.suspend({ draft });
      return ctx.resumeData?.approved ? `sent: ${draft}` : 'dropped';
    },
  });
  const store = memoryWorkflowStore();
  const send = createWorkflow({ id: 'send', input: z.string(), output: z.string() }).then(review).commit();
  const first = await send.run('Hello, world', { store });
  const done = await send.resume(first.runId, { step: 'review', payload: { approved: true } }, { store });
  const workflow = {
    first: first.status,
    payload: first.suspended?.[0]?.payload,
    second: done.status,
    output: done.output,
  };
  const handler = await askHandler(model, serve);
  return { tool, json, workflow, handler, code: await runCodePart(model, code), workspace: await runWorkspacePart() };
}

/**
 * The HTTP API as a fetch handler on memory stores, asked by the official OpenAI client: over a port
 * where `serve` is given, else through the client's `fetch` option straight into `app.fetch`.
 */
async function askHandler(
  model: ReturnType<typeof openaiCompatible>,
  serve?: Serve,
): Promise<ScenarioReport['handler']> {
  const app = createApp({
    agents: { helper: () => new Agent({ model, instructions: 'Answer briefly.' }) },
    store: memoryRunStore(),
    sessions: memorySessionStore(),
  });
  const served = serve ? await serve(app.fetch) : undefined;
  try {
    const client = new OpenAI({
      apiKey: 'unused',
      baseURL: `${served?.url ?? 'http://localhost'}/v1`,
      maxRetries: 0,
      dangerouslyAllowBrowser: true,
      ...(served
        ? {}
        : { fetch: (input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init)) }),
    });
    const messages = [{ role: 'user' as const, content: 'Say hello.' }];
    const completion = await client.chat.completions.create({ model: 'helper', messages });
    let streamed = '';
    for await (const chunk of await client.chat.completions.create({ model: 'helper', messages, stream: true })) {
      streamed += chunk.choices[0]?.delta?.content ?? '';
    }
    // The security middleware stands in front: a request naming a foreign host is refused.
    const foreign = await app.fetch(new Request('http://evil.example/v1/models'));
    return {
      served: served !== undefined,
      answer: completion.choices[0]?.message.content ?? null,
      streamed,
      foreignHost: foreign.status,
    };
  } finally {
    await served?.close();
  }
}
