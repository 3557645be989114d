import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryRunStore, PostgresRunStore, type RunStore, SqliteRunStore } from '../../../src/server/index.js';
import { queuedRun } from '../../../src/server/records/run-service.js';
import { startOnce } from '../../../src/server/runs/start-once.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stores: Record<string, () => Promise<RunStore>> = {
  memory: async () => memoryRunStore(),
  sqlite: async () => {
    const dir = tempDir();
    const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
    cleanups.push(async () => {
      await store.close();
      dir.cleanup();
    });
    return store;
  },
  postgres: async () => {
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema: uniqueName('tf_claims') });
    await store.init();
    cleanups.push(async () => {
      await store.drop();
      await store.close();
    });
    return store;
  },
};

const claim = (runId: string, extra: { fingerprint?: string; createdAt?: number; scope?: string } = {}) => ({
  scope: extra.scope ?? 'alice',
  key: 'k',
  fingerprint: extra.fingerprint ?? 'f1',
  runId,
  createdAt: extra.createdAt ?? Date.now(),
});

describe.each(Object.keys(stores))('Idempotency-Key claims in the %s run store', (kind) => {
  it('keeps the first claim of a key; another scope has its own', async () => {
    const store = await stores[kind]();
    expect((await store.claimIdempotencyKey(claim('r1'), 0)).runId).toBe('r1');
    expect((await store.claimIdempotencyKey(claim('r2', { fingerprint: 'f2' }), 0)).runId).toBe('r1');
    expect((await store.claimIdempotencyKey(claim('r3', { scope: 'bob' }), 0)).runId).toBe('r3');
    const held = await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) => store.claimIdempotencyKey(claim(id, { scope: 'x' }), 0)),
    );
    expect(new Set(held.map((h) => h.runId)).size).toBe(1);
  });

  it('releases a claim only for the run holding it, and drops expired claims', async () => {
    const store = await stores[kind]();
    await store.claimIdempotencyKey(claim('r1', { createdAt: 1_000 }), 0);
    await store.releaseIdempotencyKey({ scope: 'alice', key: 'k', runId: 'someone-else' });
    expect((await store.claimIdempotencyKey(claim('r2'), 0)).runId).toBe('r1');
    // Older than the hold: the key is free.
    expect((await store.claimIdempotencyKey(claim('r3'), 2_000)).runId).toBe('r3');
    await store.releaseIdempotencyKey({ scope: 'alice', key: 'k', runId: 'r3' });
    expect((await store.claimIdempotencyKey(claim('r4'), 0)).runId).toBe('r4');
  });

  it('frees a key whose run never came to be (its process died between the claim and the run)', async () => {
    const store = await stores[kind]();
    await store.claimIdempotencyKey(claim('ghost', { createdAt: Date.now() - 60_000 }), 0);
    const started: string[] = [];
    const result = await startOnce({
      store,
      request: { agent: 'a', input: 'x', owner: 'alice', idempotency: { key: 'k', fingerprint: 'f1' } },
      start: async (id) => {
        started.push(id);
        return { ok: false, reason: 'unknown_agent' };
      },
    });
    expect(result).toEqual({ ok: false, reason: 'unknown_agent' });
    expect(started).toHaveLength(1);
    expect(started[0]).not.toBe('ghost');
  });

  it('keeps the key of a start whose run was stored though the start failed (a commit whose answer was lost)', async () => {
    const store = await stores[kind]();
    const request = {
      agent: 'a',
      input: 'x',
      owner: 'alice',
      idempotency: { key: 'lost-ack', fingerprint: 'f1' },
    };
    const started: string[] = [];
    const start = async (id: string) => {
      started.push(id);
      const run = queuedRun(request, id);
      await store.createRun(run);
      if (started.length === 1) throw new Error('Connection terminated unexpectedly');
      return { ok: true as const, run };
    };
    await expect(startOnce({ store, request, start })).rejects.toThrow('Connection terminated');
    // The client's retry gets the run the first attempt stored, and nothing starts again.
    const retry = await startOnce({ store, request, start });
    expect(retry).toMatchObject({ ok: true, replayed: true, run: { id: started[0] } });
    expect(started).toHaveLength(1);
    // A start that failed before storing anything frees its key: the retry starts the run.
    const other = { ...request, idempotency: { key: 'never-stored', fingerprint: 'f1' } };
    let tries = 0;
    const failing = async (id: string) => {
      tries++;
      if (tries === 1) throw new Error('queue unavailable');
      const run = queuedRun(other, id);
      await store.createRun(run);
      return { ok: true as const, run };
    };
    await expect(startOnce({ store, request: other, start: failing })).rejects.toThrow('queue unavailable');
    expect(await startOnce({ store, request: other, start: failing })).toMatchObject({ ok: true });
    expect(tries).toBe(2);
  });
});
