import { join } from 'node:path';
import type { RunRecord } from '../../src/server/index.js';
import { parseSse, postJson } from '../server/server-fixtures.js';
import { spawnCli } from '../server/spawn-server.js';
import { runEngineContract } from './engine.contract.js';
import { eventually } from './engine-processes.js';

const CONFIG = join(import.meta.dirname, 'fixtures', 'builtin.config.ts');

let dataDir: string;
let url = '';
// The built-in engine keeps no thread: the caller holds the conversation and sends it as `history`.
const threads = new Map<
  string,
  { last: Promise<unknown>; history: { role: 'user' | 'assistant'; content: string }[] }
>();

async function record(runId: string): Promise<RunRecord> {
  return (await (await fetch(`${url}/v1/runs/${runId}`)).json()) as RunRecord;
}

function finished(runId: string): Promise<RunRecord> {
  return eventually(async () => {
    const run = await record(runId);
    return ['queued', 'running', 'waiting'].includes(run.status) ? undefined : run;
  }, 60_000);
}

/**
 * The run's events as SSE so far: the stream stays open while the run goes on, so it is read until it
 * ends or sends nothing for half a second, and only whole events are kept.
 */
async function eventsSoFar(runId: string) {
  const abort = new AbortController();
  const response = await fetch(`${url}/v1/runs/${runId}/events`, { signal: abort.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<'idle'>((resolve) => {
      timer = setTimeout(() => resolve('idle'), 500);
    });
    const read = await Promise.race([reader.read(), idle]);
    clearTimeout(timer);
    if (read === 'idle' || read.done) break;
    text += read.value;
  }
  abort.abort();
  const whole = text.lastIndexOf('\n\n');
  return parseSse(whole < 0 ? '' : text.slice(0, whole + 2));
}

async function startRun(agent: string, input: string, history?: unknown[]): Promise<string> {
  const response = await fetch(`${url}/v1/agents/${agent}/runs`, postJson({ input, history }));
  if (!response.ok) throw new Error(`start: ${response.status} ${await response.text()}`);
  return ((await response.json()) as RunRecord).id;
}

runEngineContract({
  name: 'builtin',
  async setup(dir) {
    dataDir = dir;
  },
  async teardown() {},
  async startWorker(env) {
    const server = await spawnCli(['serve', '--port', '0', '--config', CONFIG, '--data-dir', dataDir], {
      ...env,
      THINKFLOW_API_TOKENS: '',
    });
    url = server.url;
    return { kill: () => server.kill() };
  },
  async start(agent, input, options = {}) {
    if (!options.thread) return startRun(agent, input);
    const thread = threads.get(options.thread) ?? { last: Promise.resolve(), history: [] };
    threads.set(options.thread, thread);
    await thread.last;
    const runId = await startRun(agent, input, thread.history);
    // Not awaited by the test: a server stopped before this run ends must not leave a rejection unhandled.
    thread.last = finished(runId).then(
      (run) => {
        thread.history.push({ role: 'user', content: input }, { role: 'assistant', content: run.result?.output ?? '' });
      },
      () => {},
    );
    return runId;
  },
  async result(runId) {
    const run = await finished(runId);
    return { status: run.result?.status ?? run.status, output: run.result?.output ?? '' };
  },
  pending(runId) {
    return eventually(async () => (await record(runId)).questions?.find((q) => !q.answer)?.id, 60_000);
  },
  async approve(runId, questionId) {
    const response = await fetch(`${url}/v1/runs/${runId}/approvals`, postJson({ questionId, approved: true }));
    if (!response.ok) throw new Error(`approve: ${response.status} ${await response.text()}`);
  },
  async cancel(runId) {
    await fetch(`${url}/v1/runs/${runId}/cancel`, postJson({}));
  },
  async cancelled(runId) {
    return (await finished(runId)).status === 'aborted';
  },
  async events(runId) {
    const events = await eventsSoFar(runId);
    return events.map((e) => {
      const event = JSON.parse(e.data) as { type: string; callId?: string };
      return { seq: Number(e.id), type: event.type, callId: event.callId };
    });
  },
  async steps(runId) {
    // Asked once the run ended: its stream ends by itself.
    const events = parseSse(await (await fetch(`${url}/v1/runs/${runId}/events`)).text());
    return events
      .map((e) => JSON.parse(e.data) as { type: string; tool?: string })
      .filter((e) => e.type === 'tool_end')
      .map((e) => `tool:${e.tool}`);
  },
});
