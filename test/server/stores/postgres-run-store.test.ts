import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../../src/agent/index.js';
import { PostgresRunStore } from '../../../src/server/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { runStoreContract } from './run-store.contract.js';
import { runStoreRetentionContract } from './run-store-retention.contract.js';

async function openTempStore() {
  const store = new PostgresRunStore({ connectionString: TEST_PG, schema: uniqueName('tf_test') });
  await store.init();
  return {
    store,
    cleanup: async () => {
      await store.drop();
      await store.close();
    },
  };
}

runStoreContract('PostgresRunStore', openTempStore);
runStoreRetentionContract('PostgresRunStore', openTempStore);

describe('PostgresRunStore on a database written by an older version', () => {
  it('adds the steps table and reads checkpoints that hold their steps inline', async () => {
    const schema = uniqueName('tf_test');
    const pool = new pg.Pool({ connectionString: TEST_PG, max: 1 });
    await pool.query(`CREATE SCHEMA ${schema};
      CREATE TABLE ${schema}.runs (
        id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL, source TEXT NOT NULL,
        created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, result TEXT, questions TEXT, cancel_requested BOOLEAN);
      CREATE TABLE ${schema}.run_events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (run_id, seq));
      CREATE TABLE ${schema}.run_checkpoints (run_id TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at BIGINT NOT NULL);`);
    const step = { index: 0, kind: 'tool_calls' as const, raw: 'r', toolCalls: [], observation: 'o' };
    const old = {
      runId: 'r',
      input: 'go',
      steps: [step],
      usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
    };
    await pool.query(`INSERT INTO ${schema}.run_checkpoints VALUES ('r', $1, 1)`, [JSON.stringify(old)]);
    await pool.end();
    const store = new PostgresRunStore({ connectionString: TEST_PG, schema });
    try {
      await store.init();
      const loaded = await store.loadCheckpoint('r');
      expect(loaded?.steps).toEqual([step]);
      // The next checkpoint writes every step to the new table.
      await store.saveCheckpoint({ ...(loaded as Checkpoint), steps: [step, { ...step, index: 1 }] });
      expect((await store.loadCheckpoint('r'))?.steps.map((s) => s.index)).toEqual([0, 1]);
    } finally {
      await store.drop();
      await store.close();
    }
  });
});

describe('PostgresRunStore opened by several processes at once', () => {
  it('creates a new schema once while eight stores (eight pools) init it together, repeated', async () => {
    for (let round = 0; round < 5; round++) {
      const schema = uniqueName('tf_race');
      const stores = Array.from({ length: 8 }, () => new PostgresRunStore({ connectionString: TEST_PG, schema }));
      try {
        const results = await Promise.allSettled(stores.map((store) => store.init()));
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      } finally {
        await stores[0].drop();
        await Promise.all(stores.map((store) => store.close()));
      }
    }
  }, 60_000);
});
