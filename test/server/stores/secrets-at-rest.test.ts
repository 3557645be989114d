import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { SqliteSessionStore } from '../../../src/memory/node.js';
import {
  createApp,
  PostgresRunStore,
  type RunRecord,
  type RunStore,
  SqliteRunStore,
  serve,
} from '../../../src/server/index.js';
import { unpackEvents } from '../../../src/server/stores/event-block-codec.js';
import { defineTool } from '../../../src/tools/index.js';
import { runCli } from '../../cli/run-cli.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { callReply, postJson, tempDir } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

/** Key shapes the redactor knows, each planted in a different part of a run. */
const SECRETS = {
  /** In the user's input. */
  input: 'sk-proj-Ab12Cd34Ef56Gh78Ij90KlMn',
  /** In a chat request's system message (the run's history, every model request). */
  system: 'Zq8mN3vR5tY7wP2xK9Lb',
  /** In a tool call's arguments (result.steps, tool_start, the next requests, the checkpoint). */
  argument: 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  /** A secret-named argument field, whatever its shape. */
  password: 'hunter2-correct-horse-battery',
  /** In a tool's output (observation, result.steps, checkpoint steps). */
  output: 'AKIAIOSFODNN7EXAMPLE',
  /** In the arguments of a call waiting for approval (the run's questions, its pending checkpoint). */
  approval: 'xoxb-123456789012-abcdefABCDEF',
  /** In the model's final answer (output, final, run_end, the chat reply, the session). */
  answer: 'Q7w8E9r0T1y2U3i4',
} as const;
const PLANTED = Object.values(SECRETS);

function leaks(text: string): string[] {
  return PLANTED.filter((secret) => text.includes(secret));
}

/** Calls `lookup` with a token and a password, then `deploy` (approval), then answers with a key in a URL. */
function leakyAgent() {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Reads a setting.',
    input: z.object({ token: z.string(), password: z.string() }),
    run: () => `AWS_ACCESS_KEY_ID=${SECRETS.output} (and more text around it so it is shared)`,
  });
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys.',
    input: z.object({ webhook: z.string() }),
    needsApproval: true,
    run: ({ webhook }) => `deployed with ${webhook.length} chars`,
  });
  return new Agent({
    model: scriptedModel((request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      if (done === 0) return callReply('c1', 'lookup', { token: SECRETS.argument, password: SECRETS.password });
      if (done === 1) return callReply('c2', 'deploy', { webhook: SECRETS.approval });
      return `Done: https://api.example.com/v1/status?api_key=${SECRETS.answer} and ${SECRETS.input}`;
    }),
    tools: [lookup, deploy],
  });
}

/** A run that answers at once with the key it was given. */
function echoAgent() {
  return new Agent({ model: scriptedModel((request) => `You said: ${JSON.stringify(request.messages.at(-1))}`) });
}

const chatRequest = {
  model: 'leaky',
  messages: [
    { role: 'system', content: `Call the API with Authorization: Bearer ${SECRETS.system}` },
    { role: 'user', content: `My key is ${SECRETS.input}; set it up.` },
  ],
};

interface Scanned {
  /** Everything an HTTP client was answered, concatenated. */
  answers: string[];
  runIds: string[];
}

/** Drives one app through every route that answers with run data; scans its store while the run waits. */
async function driveRuns(store: RunStore, sessions: SqliteSessionStore, atRest: () => Promise<string>) {
  const app = createApp({ agents: { leaky: () => leakyAgent(), echo: () => echoAgent() }, store, sessions });
  const request = (path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));
  const scanned: Scanned = { answers: [], runIds: [] };
  const answer = async (response: Response | Promise<Response>) => {
    const text = await (await response).text();
    scanned.answers.push(text);
    return text;
  };
  try {
    // A chat completion whose run pauses for approval: its checkpoint and questions are stored meanwhile.
    const chat = request('/v1/chat/completions', postJson(chatRequest));
    const waiting = await eventually(async () => {
      const page = await app.runs.list({ status: ['waiting'] });
      return page.runs[0];
    }, 10_000);
    scanned.runIds.push(waiting.id);
    const paused = JSON.parse(await answer(request(`/v1/runs/${waiting.id}`))) as RunRecord;
    expect(paused.questions?.[0]).toMatchObject({ kind: 'approval', tool: 'deploy' });
    expect(leaks(await atRest())).toEqual([]);
    await answer(request(`/v1/runs/${waiting.id}/approvals`, postJson({ approved: true })));
    const reply = JSON.parse(await answer(chat));
    expect(reply.choices[0].message.content).toContain('[redacted]');

    // The same run through the runs API, waited on and read back.
    const started = await request('/v1/agents/leaky/runs', postJson({ input: chatRequest.messages[1].content }));
    const { id } = JSON.parse(await answer(started)) as RunRecord;
    scanned.runIds.push(id);
    await eventually(async () => ((await app.runs.get(id))?.status === 'waiting' ? true : undefined), 10_000);
    await answer(request(`/v1/runs/${id}/approvals`, postJson({ approved: true })));
    const ended = await app.runs.wait(id);
    expect(ended?.status).toBe('done');
    // The run used the real values: its tool saw the whole webhook, not the redacted text.
    expect(ended?.result?.steps[1].toolCalls[0].output).toBe(`deployed with ${SECRETS.approval.length} chars`);
    for (const path of [`/v1/runs/${id}`, `/v1/runs/${id}/events`, '/v1/runs']) {
      await answer(request(path));
    }
    // The model streamed its answer in pieces: joined again, the stored deltas hold no credential either.
    const trace = (await answer(request(`/v1/runs/${id}/trace`))).trim().split('\n');
    const streamed = new Map<number, string>();
    for (const line of trace.map((text) => JSON.parse(text))) {
      if (line.type === 'model_delta') streamed.set(line.step, (streamed.get(line.step) ?? '') + line.text);
    }
    expect([...streamed.values()].join('')).toContain('Done: https://api.example.com');
    scanned.answers.push([...streamed.values()].join('\n'));
    const waited = await answer(
      request('/v1/agents/echo/runs?wait=true', postJson({ input: `token ${SECRETS.input}`, wait: true })),
    );
    expect(JSON.parse(waited).result.output).toContain('[redacted]');
    scanned.runIds.push(JSON.parse(waited).id);

    // A session turn: the question and the answer are kept in the session store.
    const turn = JSON.parse(
      await answer(request('/v1/sessions/s1/runs', postJson({ agent: 'echo', input: `use ${SECRETS.input}` }))),
    ) as RunRecord;
    await app.runs.wait(turn.id);
    await eventually(async () => ((await sessions.load('s1')).length === 2 ? true : undefined), 5000);
    await answer(request('/v1/sessions/s1'));
  } finally {
    await app.runs.close({ timeoutMs: 1000 });
  }
  return scanned;
}

function expectNoLeaks(scanned: Scanned) {
  for (const text of scanned.answers) expect(leaks(text)).toEqual([]);
  expect(scanned.answers.join('\n')).toContain('[redacted]');
}

/** Every byte of the SQLite files (database and WAL), and every event block decoded. */
function sqliteBytes(paths: string[]): string {
  let text = '';
  for (const path of paths) {
    for (const file of [path, `${path}-wal`]) if (existsSync(file)) text += readFileSync(file).toString('latin1');
    const db = new Database(path, { readonly: true });
    const hasBlocks = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'run_event_blocks'").get();
    if (hasBlocks) {
      for (const row of db.prepare('SELECT events FROM run_event_blocks').all() as { events: Buffer }[]) {
        text += unpackEvents(row.events);
      }
    }
    db.close();
  }
  return text;
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('secrets at rest', () => {
  it('are in no SQLite byte, HTTP answer or `thinkflow runs show` output, while a run waits and after', async () => {
    const dir = tempDir();
    const runsDb = join(dir.path, 'runs.db');
    const sessionsDb = join(dir.path, 'thinkflow.db');
    const store = new SqliteRunStore({ path: runsDb });
    const sessions = new SqliteSessionStore({ dataDir: dir.path });
    cleanup = async () => {
      await store.close();
      await sessions.close();
      dir.cleanup();
    };
    const scanned = await driveRuns(store, sessions, async () => {
      // The run store's file and WAL as they are while the run waits (its writes are committed).
      await store.getRun('flush');
      return sqliteBytes([runsDb]);
    });
    expectNoLeaks(scanned);
    expect(leaks(sqliteBytes([runsDb, sessionsDb]))).toEqual([]);
    await store.close();
    await sessions.close();
    expect(leaks(sqliteBytes([runsDb, sessionsDb]))).toEqual([]);
    const shown = await runCli(['runs', 'show', scanned.runIds[0], '--data-dir', dir.path]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('[redacted]');
    expect(leaks(shown.stdout)).toEqual([]);
  }, 60_000);

  it('are in no PostgreSQL column (text, json, bytea) nor HTTP answer', async () => {
    const dir = tempDir();
    const schema = uniqueName('tf_secrets');
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await store.init();
    const sessions = new SqliteSessionStore({ dataDir: dir.path });
    const client = new pg.Client({ connectionString: TEST_PG });
    await client.connect();
    cleanup = async () => {
      await client.end();
      await store.drop();
      await store.close();
      await sessions.close();
      dir.cleanup();
    };
    /** Every column of every table in the schema, as text (bytea decoded as UTF-8). */
    const everything = async () => {
      const columns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
        'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1',
        [schema],
      );
      let text = '';
      for (const { table_name, column_name, data_type } of columns.rows) {
        const value = data_type === 'bytea' ? `convert_from("${column_name}", 'UTF8')` : `"${column_name}"::text`;
        const rows = await client.query<{ v: string | null }>(`SELECT ${value} AS v FROM ${schema}."${table_name}"`);
        text += rows.rows.map((row) => row.v ?? '').join('\n');
      }
      return text;
    };
    const scanned = await driveRuns(store, sessions, everything);
    expectNoLeaks(scanned);
    const stored = await everything();
    expect(stored).toContain('[redacted]');
    expect(leaks(stored)).toEqual([]);
  }, 60_000);

  it('are not in the checkpoint a run resumes from: after a restart the waiting call gets the redacted value', async () => {
    const dir = tempDir();
    const received: string[] = [];
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys.',
      input: z.object({ webhook: z.string() }),
      needsApproval: true,
      run: ({ webhook }) => {
        received.push(webhook);
        return 'deployed';
      },
    });
    const agent = () =>
      new Agent({
        model: scriptedModel((request) =>
          request.messages.some((m) => m.role === 'tool')
            ? 'Done.'
            : callReply('c1', 'deploy', { webhook: SECRETS.approval }),
        ),
        tools: [deploy],
      });
    const start = () =>
      serve({ config: { agents: { ops: agent } }, port: 0, dataDir: dir.path, shutdownTimeoutMs: 50, log: () => {} });
    let server = await start();
    cleanup = async () => {
      await server.close();
      dir.cleanup();
    };
    const created = await fetch(`${server.url}/v1/agents/ops/runs`, postJson({ input: 'ship it' }));
    const { id } = (await created.json()) as RunRecord;
    const waitingIn = (running: typeof server) =>
      eventually(async () => ((await running.runs.get(id))?.status === 'waiting' ? true : undefined), 10_000);
    await waitingIn(server);
    await server.close();
    // What a crash or restart leaves: the run resumes from its stored, redacted checkpoint.
    server = await start();
    await waitingIn(server);
    await fetch(`${server.url}/v1/runs/${id}/approvals`, postJson({ approved: true }));
    expect((await server.runs.wait(id, AbortSignal.timeout(10_000)))?.status).toBe('done');
    expect(received).toEqual(['[redacted]']);
  }, 30_000);
});
