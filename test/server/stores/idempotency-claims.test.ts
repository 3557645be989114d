import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunStore, type RunStore, SqliteRunStore } from '../../../src/server/index.js';
import { startOnce } from '../../../src/server/start-once.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stores: Record<string, () => Promise<RunStore>> = {
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
});
