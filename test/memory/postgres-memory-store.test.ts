import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresMemoryStore } from '../../src/memory/index.js';
import { runMemoryStoreContract } from './memory-store.contract.js';

// The PostgreSQL this machine kind starts: 127.0.0.1:5432, trust auth, database `test`, user postgres or root.
const USERS = ['postgres', 'root'];
const schema = `thinkflow_test_${process.pid}_${Date.now().toString(36)}`;
let pool: pg.Pool;
let connectionString = '';
let n = 0;

beforeAll(async () => {
  for (const user of USERS) {
    const candidate = new pg.Pool({ host: '127.0.0.1', port: 5432, user, database: 'test', max: 4 });
    candidate.on('error', () => {});
    try {
      await candidate.query('SELECT 1');
      pool = candidate;
      connectionString = `postgres://${user}@127.0.0.1:5432/test`;
      break;
    } catch (error) {
      await candidate.end();
      if (user === USERS.at(-1)) throw error;
    }
  }
});
afterAll(async () => {
  await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool?.end();
});

// Twice: with pgvector when this server has it, and always with vectors kept as real[].
runMemoryStoreContract({
  name: 'PostgresMemoryStore',
  create: async (options) => new PostgresMemoryStore({ pool, schema, table: `memories_${n++}`, ...options }),
});
runMemoryStoreContract({
  name: 'PostgresMemoryStore without pgvector',
  create: async (options) =>
    new PostgresMemoryStore({ pool, schema, table: `memories_${n++}`, pgvector: false, ...options }),
});

describe('PostgresMemoryStore', () => {
  it('picks pgvector exactly when the extension is available', async () => {
    const available = await pool.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    const store = new PostgresMemoryStore({ pool, schema, table: `memories_${n++}` });
    expect(await store.vectorMode()).toBe(available.rowCount ? 'pgvector' : 'array');
  });

  it('an unreachable server gives a StoreError naming the fix', async () => {
    const store = new PostgresMemoryStore({ connectionString: 'postgres://nobody@127.0.0.1:9/none' });
    await expect(store.list()).rejects.toMatchObject({
      name: 'StoreError',
      message: expect.stringMatching(/Check that PostgreSQL is running/),
    });
    await store.close();
  });

  it('creates a new schema once while eight stores (eight pools) init it together, repeated', async () => {
    for (let round = 0; round < 5; round++) {
      const fresh = `${schema}_race_${round}`;
      const stores = Array.from({ length: 8 }, () => new PostgresMemoryStore({ connectionString, schema: fresh }));
      try {
        const results = await Promise.allSettled(stores.map((store) => store.vectorMode()));
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        await stores[0].add({ kind: 'fact', text: 'one table for all of them' });
        expect((await Promise.all(stores.map((store) => store.list()))).map((list) => list.length)).toEqual(
          Array(8).fill(1),
        );
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${fresh}" CASCADE`);
        await Promise.all(stores.map((store) => store.close()));
      }
    }
  }, 60_000);

  it('a row that no longer parses is a StoreError naming the memory and the statement that deletes it', async () => {
    const table = `memories_${n++}`;
    const store = new PostgresMemoryStore({ pool, schema, table });
    const { id } = await store.add({ kind: 'fact', text: 'edited by hand later' });
    await pool.query(`UPDATE "${schema}"."${table}" SET kind = 'rumour' WHERE id = $1`, [id]);
    await expect(store.get(id)).rejects.toMatchObject({
      name: 'StoreError',
      message: expect.stringContaining(`Memory ${id} in "${schema}"."${table}" is unreadable`),
    });
    await expect(store.list()).rejects.toThrow(`DELETE FROM "${schema}"."${table}" WHERE id = '${id}'`);
  });

  it('rejects unsafe schema or table names', () => {
    expect(() => new PostgresMemoryStore({ pool, table: 'x; DROP TABLE y' })).toThrow(/lower-case/);
  });
});
