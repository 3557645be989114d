import { join } from 'node:path';
import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import type { RunResult } from '../../src/index.js';
import { TEST_PG } from '../server/pg-fixtures.js';
import { lines } from '../server/server-fixtures.js';
import { runEngineContract } from './engine.contract.js';
import { eventually, pendingAnswer, spawnWorker } from './engine-processes.js';

const WORKER = join(import.meta.dirname, 'fixtures', 'dbos-worker.ts');
// A fresh database per run, on the server the other PostgreSQL tests use.
const ADMIN_URL = TEST_PG;
const database = `thinkflow_dbos_${process.pid}_${Date.now()}`;
const databaseUrl = Object.assign(new URL(TEST_PG), { pathname: `/${database}` }).toString();

let pendingFile: string;
let eventsFile: string;
let client: DBOSClient | undefined;

async function dbos(): Promise<DBOSClient> {
  const { DBOSClient } = await import('@dbos-inc/dbos-sdk');
  client ??= await DBOSClient.create({ systemDatabaseUrl: databaseUrl, applicationName: 'thinkflow-conformance' });
  return client;
}

async function admin(sql: string): Promise<void> {
  const db = new pg.Client({ connectionString: ADMIN_URL });
  await db.connect();
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}

runEngineContract({
  name: 'dbos',
  async setup(dir) {
    pendingFile = join(dir, 'pending.jsonl');
    eventsFile = join(dir, 'events.jsonl');
    await admin(`CREATE DATABASE ${database}`);
  },
  async teardown() {
    await client?.destroy();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  },
  startWorker: (env) => spawnWorker(WORKER, { ...env, DATABASE_URL: databaseUrl, PENDING_FILE: pendingFile }),
  async start(agent, input, options = {}) {
    const workflowID = crypto.randomUUID();
    const queuePartitionKey = options.thread ?? workflowID;
    const handle = await (await dbos()).enqueue(
      { queueName: `thinkflow-${agent}`, workflowName: agent, workflowID, queuePartitionKey },
      { input, thread: options.thread },
    );
    return handle.workflowID;
  },
  async result(runId) {
    return (await (await dbos()).retrieveWorkflow<RunResult>(runId).getResult()) as RunResult;
  },
  pending(runId) {
    return pendingAnswer(pendingFile, runId);
  },
  async approve(runId, answerId) {
    await (await dbos()).send(runId, { approved: true }, answerId);
  },
  async cancel(runId) {
    await (await dbos()).cancelWorkflow(runId);
  },
  async cancelled(runId) {
    const status = await eventually(async () => (await (await dbos()).getWorkflow(runId))?.status);
    return status === 'CANCELLED';
  },
  events(runId) {
    return Promise.resolve(
      lines(eventsFile)
        .map((l) => JSON.parse(l) as { runId: string; seq: number; type: string; callId?: string })
        .filter((e) => e.runId === runId),
    );
  },
  async steps(runId) {
    return ((await (await dbos()).listWorkflowSteps(runId)) ?? []).map((s) => s.name);
  },
});
