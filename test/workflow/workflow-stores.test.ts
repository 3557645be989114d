import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { postgresWorkflowStore } from '../../src/entries/postgres.js';
import { sqliteWorkflowStore } from '../../src/entries/sqlite.js';
import {
  createStep,
  createWorkflow,
  memoryWorkflowStore,
  type WorkflowRunRecord,
  type WorkflowStore,
} from '../../src/entries/workflow.js';
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

describe.each(stores)('the %s workflow store', (name, open) => {
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
      expect(await store.loadStepsAt?.(started.runId, ['1.ask', '9.none'])).toEqual({
        '1.ask': { status: 'done', output: 10, usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 } },
      });
      const forked = await flow.fork(started.runId, { fromStep: 'ask' }, { store });
      expect(forked.status).toBe('suspended');
      expect(first).toBe(1);
    } finally {
      await store.close?.();
    }
  });

  it('numbers the events of a run from 1 across concurrent appends, and reads them back after a seq', async () => {
    const first = open();
    // Two handles on one store, as two processes have (the memory store is one process's).
    const stores = name === 'memory' ? [first, first] : [first, open()];
    const ev = (n: number) =>
      ({ type: 'step_start', runId: 'r', ts: n, step: n, stepId: 's', path: `${n}.s` }) as const;
    try {
      const runId = `events-${Math.random().toString(36).slice(2)}`;
      // Two writers (an orchestrator and a queue worker, say) append to one run at once.
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          stores[i % 2]!.appendEvents!(runId, [ev(i * 3), ev(i * 3 + 1), ev(i * 3 + 2)]),
        ),
      );
      const all = await stores[0]!.readEvents!(runId, 0);
      expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      // Each append's events stay together and in order.
      const ts = all.map((e) => e.event.ts);
      for (let i = 0; i < 30; i += 3) expect([ts[i]! + 1, ts[i]! + 2]).toEqual([ts[i + 1], ts[i + 2]]);
      expect((await stores[1]!.readEvents!(runId, 28)).map((e) => e.seq)).toEqual([29, 30]);
      expect((await stores[1]!.readEvents!(runId, 0, 5)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(await stores[1]!.readEvents!('no-such-run', 0)).toEqual([]);
    } finally {
      for (const store of new Set(stores)) await store.close?.();
    }
  });

  it('gives a run lease to one holder at a time: renewed by it, free once expired or released', async () => {
    const store = open();
    try {
      const runId = `lease-${Math.random().toString(36).slice(2)}`;
      const a = { holder: 'elsewhere:1:1:a', until: Date.now() + 60_000 };
      const b = { holder: 'elsewhere:2:1:b', until: Date.now() + 60_000 };
      const claims = await Promise.all([store.claimRun!(runId, a), store.claimRun!(runId, b)]);
      expect(claims).toEqual([true, false]);
      expect(await store.leaseOf!(runId)).toEqual(a);
      expect(await store.claimRun!(runId, { ...a, until: a.until + 1 })).toBe(true);
      // Taken over only as the lease seen before (a dead holder), not once it changed.
      expect(await store.claimRun!(runId, b, a)).toBe(false);
      expect(await store.claimRun!(runId, b, { ...a, until: a.until + 1 })).toBe(true);
      expect((await store.leaseOf!(runId))?.holder).toBe(b.holder);
      await store.releaseRun!(runId, a.holder);
      expect((await store.leaseOf!(runId))?.holder).toBe(b.holder);
      await store.releaseRun!(runId, b.holder);
      expect(await store.leaseOf!(runId)).toBeUndefined();
      await store.claimRun!(runId, { holder: a.holder, until: Date.now() - 1 });
      expect(await store.claimRun!(runId, b)).toBe(true);
    } finally {
      await store.close?.();
    }
  });

  it('refuses to carry a run another process holds, and takes over one whose process on this host died', async () => {
    const store = open();
    const flow = createWorkflow({ id: 'leased', input: z.number(), output: z.number() })
      .then(createStep({ id: 'inc', input: z.number(), output: z.number(), run: (n) => n + 1 }))
      .commit();
    try {
      const runId = `held-${Math.random().toString(36).slice(2)}`;
      // A live holder elsewhere: the run is not started here.
      await store.claimRun!(runId, { holder: 'other-host:1:1:x', until: Date.now() + 60_000 });
      await expect(flow.run(1, { store, runId })).rejects.toMatchObject({ code: 'running' });
      expect(await store.getRun(runId)).toBeUndefined();
      // A holder on this host whose process is gone (the pid of a process that exited) holds nothing.
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      const orphan = `${runId}-orphan`;
      await store.claimRun!(orphan, { holder: `${hostname()}:${gone}:1:y`, until: Date.now() + 60_000 });
      expect(await flow.run(1, { store, runId: orphan })).toMatchObject({ status: 'done', output: 2 });
      // Released at the end.
      expect(await store.leaseOf!(orphan)).toBeUndefined();
    } finally {
      await store.close?.();
    }
  });

  it('lists runs newest first, filtered by workflow, status and owner, a page at a time', async () => {
    const store = open();
    const tag = Math.random().toString(36).slice(2);
    const record = (n: number, fields: Partial<WorkflowRunRecord>): WorkflowRunRecord => ({
      id: `list-${tag}-${n}`,
      workflowId: `wf-${tag}`,
      definitionHash: 'h',
      input: n,
      status: 'done',
      createdAt: 1_000 + n,
      updatedAt: 1_000 + n,
      ...fields,
    });
    try {
      await store.createRun(record(1, { owner: 'alice' }));
      await store.createRun(record(2, { owner: 'bob' }));
      await store.createRun(record(3, { owner: 'alice', status: 'suspended' }));
      await store.createRun(record(4, { owner: 'alice', workflowId: `other-${tag}` }));
      const ids = (runs: WorkflowRunRecord[]) => runs.map((r) => Number(r.id.split('-').at(-1)));
      expect(ids(await store.listRuns!({ workflowId: `wf-${tag}`, limit: 10 }))).toEqual([3, 2, 1]);
      expect(ids(await store.listRuns!({ workflowId: `wf-${tag}`, owner: 'alice', limit: 10 }))).toEqual([3, 1]);
      expect(ids(await store.listRuns!({ workflowId: `wf-${tag}`, status: 'suspended', limit: 10 }))).toEqual([3]);
      const first = await store.listRuns!({ workflowId: `wf-${tag}`, limit: 2 });
      expect(ids(first)).toEqual([3, 2]);
      expect(ids(await store.listRuns!({ workflowId: `wf-${tag}`, limit: 2, before: first[1]!.createdAt }))).toEqual([
        1,
      ]);
      expect((await store.listRuns!({ workflowId: `wf-${tag}`, limit: 1 }))[0]).toMatchObject({
        owner: 'alice',
        input: 3,
      });
    } finally {
      await store.close?.();
    }
  });
});
