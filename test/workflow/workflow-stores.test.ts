import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { postgresWorkflowStore } from '../../src/entries/postgres.js';
import {
  createStep,
  createWorkflow,
  memoryWorkflowStore,
  sqliteWorkflowStore,
  type WorkflowStore,
} from '../../src/index.js';
import { TEST_PG, uniqueName } from '../server/pg-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-wf-stores-'));
const schema = uniqueName('tf_wf');
const stores: [string, () => WorkflowStore][] = [
  ['memory', () => memoryWorkflowStore()],
  ['sqlite', () => sqliteWorkflowStore({ file: join(dir, 'wf.db') })],
  ['postgres', () => postgresWorkflowStore({ connectionString: TEST_PG, schema })],
];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const pool = new pg.Pool({ connectionString: TEST_PG, max: 1 });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe.each(stores)('the %s workflow store', (_, open) => {
  it('keeps a suspended run with its checkpoints, resumes it, and forks it', async () => {
    const store = open();
    let first = 0;
    const count = createStep({
      id: 'count',
      input: z.number(),
      output: z.number(),
      run: (n) => {
        first++;
        return n + 1;
      },
    });
    const ask = createStep({
      id: 'ask',
      input: z.number(),
      output: z.number(),
      resumeSchema: z.number(),
      run: (n, ctx) => (ctx.resumeData === undefined ? ctx.suspend({ question: 'how many?' }) : n * ctx.resumeData),
    });
    const flow = createWorkflow({ id: 'stored', input: z.number(), output: z.number() }).then(count).then(ask).commit();
    try {
      const started = await flow.run(1, { store, owner: 'alice' });
      expect(started.status).toBe('suspended');
      expect(await store.runIdsWithStatus?.('suspended')).toContain(started.runId);
      expect(await store.runIdsWithStatus?.('running')).not.toContain(started.runId);
      expect((await store.getRun(started.runId))?.owner).toBe('alice');
      expect(await store.getRun(started.runId)).toMatchObject({ status: 'suspended', workflowId: 'stored', input: 1 });
      expect((await store.loadSteps(started.runId))['1.ask']).toEqual({
        status: 'suspended',
        stepId: 'ask',
        payload: { question: 'how many?' },
      });
      const done = await flow.resume(started.runId, { step: 'ask', payload: 5 }, { store });
      expect(done).toMatchObject({ status: 'done', output: 10 });
      expect(await store.getRun(started.runId)).toMatchObject({ status: 'done', output: 10 });
      expect((await store.getRun(started.runId))?.error).toBeUndefined();
      const forked = await flow.fork(started.runId, { fromStep: 'ask' }, { store });
      expect(forked.status).toBe('suspended');
      expect(first).toBe(1);
    } finally {
      await store.close?.();
    }
  });
});
