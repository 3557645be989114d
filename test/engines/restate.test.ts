import { join } from 'node:path';
import { lines } from '../server/server-fixtures.js';
import { runEngineContract } from './engine.contract.js';
import { freePort, pendingAnswer, type RestateServer, spawnWorker, startRestateServer } from './engine-processes.js';

const WORKER = join(import.meta.dirname, 'fixtures', 'restate-worker.ts');

let server: RestateServer;
let port: number;
let pendingFile: string;
let eventsFile: string;
let registered = false;

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function ok(response: Response): Promise<Response> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return response;
}

runEngineContract({
  name: 'restate',
  async setup(dir) {
    server = await startRestateServer(join(dir, 'restate'));
    port = await freePort();
    pendingFile = join(dir, 'pending.jsonl');
    eventsFile = join(dir, 'events.jsonl');
  },
  async teardown() {
    await server?.stop();
  },
  async startWorker(env) {
    const worker = await spawnWorker(WORKER, { ...env, PORT: String(port), PENDING_FILE: pendingFile });
    if (!registered) {
      await ok(await fetch(`${server.admin}/deployments`, json({ uri: `http://127.0.0.1:${port}`, force: true })));
      registered = true;
    }
    return worker;
  },
  async start(agent, input, options = {}) {
    const target = agent === 'flaky' ? 'flaky' : `conformance/${options.thread ?? crypto.randomUUID()}`;
    const response = await ok(await fetch(`${server.ingress}/${target}/run/send`, json(input)));
    return ((await response.json()) as { invocationId: string }).invocationId;
  },
  async result(runId) {
    const response = await ok(await fetch(`${server.ingress}/restate/invocation/${runId}/attach`));
    return (await response.json()) as { status: string; output: string };
  },
  pending(runId) {
    return pendingAnswer(pendingFile, runId);
  },
  async approve(_runId, answerId) {
    await ok(await fetch(`${server.ingress}/restate/awakeables/${answerId}/resolve`, json({ approved: true })));
  },
  async cancel(runId) {
    await ok(await fetch(`${server.admin}/invocations/${runId}/cancel`, { method: 'PATCH' }));
  },
  async cancelled(runId) {
    const response = await fetch(`${server.ingress}/restate/invocation/${runId}/attach`);
    const text = await response.text();
    return !response.ok && /cancel/i.test(text);
  },
  events(runId) {
    return Promise.resolve(
      lines(eventsFile)
        .map((l) => JSON.parse(l) as { runId: string; seq: number; type: string; callId?: string })
        .filter((e) => e.runId === runId),
    );
  },
  async steps(runId) {
    const query = `SELECT name FROM sys_journal WHERE id = '${runId}' ORDER BY index`;
    const response = await ok(
      await fetch(`${server.admin}/query`, {
        ...json({ query }),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      }),
    );
    const { rows } = (await response.json()) as { rows: { name: string | null }[] };
    return rows.map((r) => r.name ?? '');
  },
});
