import { afterEach, describe, expect, it } from 'vitest';
import { inTransaction, openSchemaPool, withPooledClient } from '../../src/memory/index.js';
import { startPrivatePostgres } from '../server/private-services.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

describe('a pooled client held across awaits', () => {
  // pg-pool stops listening for a client's `error` while it is checked out. The recovery pass holds one
  // while it waits on Redis; PostgreSQL stopping then ended `thinkflow serve` with an unhandled error.
  it('survives PostgreSQL going away between two queries, and is not pooled again', async () => {
    const pg = await startPrivatePostgres();
    cleanups.push(pg.close);
    const { pool } = openSchemaPool({ connectionString: pg.url, max: 1, connectTimeoutMs: 2000 });
    cleanups.push(() => pool.end());
    let pid = 0;
    const held = await withPooledClient(pool, async (client) => {
      pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await pg.stop();
      // The server's "terminating connection" arrives while no query is active.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return 'kept';
    });
    expect(held).toBe('kept');
    await pg.start();
    const again = await pool.query('SELECT pg_backend_pid() AS pid');
    expect(again.rows[0].pid).not.toBe(pid);
  }, 60_000);
});

// The PostgreSQL this machine kind starts: 127.0.0.1:5432, trust auth, database `test`, user postgres or root.
async function localPool(max: number): Promise<import('pg').Pool> {
  const { default: pg } = await import('pg');
  for (const user of ['postgres', 'root']) {
    const pool = new pg.Pool({ host: '127.0.0.1', port: 5432, user, database: 'test', max });
    pool.on('error', () => {});
    try {
      await pool.query('SELECT 1');
      cleanups.push(() => pool.end());
      return pool;
    } catch (error) {
      await pool.end();
      if (user === 'root') throw error;
    }
  }
  throw new Error('unreachable');
}

const pidOf = async (pool: import('pg').Pool) => (await pool.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;

describe('a transaction that fails', () => {
  it('gives its connection back to the pool once the rollback went through', async () => {
    const pool = await localPool(1);
    const pid = await pidOf(pool);
    await expect(inTransaction(pool, (client) => client.query('SELECT 1/0'))).rejects.toThrow(/division by zero/);
    await expect(
      inTransaction(pool, async () => {
        throw new Error('the work gave up');
      }),
    ).rejects.toThrow('the work gave up');
    expect(await pidOf(pool)).toBe(pid);
    // No failed transaction is left open on the kept connection: a statement starts its own (inside an
    // open transaction, now() would be that transaction's start).
    expect((await pool.query('SELECT now() = statement_timestamp() AS fresh')).rows[0].fresh).toBe(true);
  });

  it('destroys the connection when the rollback cannot go through', async () => {
    const pool = await localPool(1);
    const other = await localPool(1);
    const pid = await pidOf(pool);
    await expect(
      inTransaction(pool, async (client) => {
        const own = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await other.query('SELECT pg_terminate_backend($1)', [own]);
        await client.query('SELECT 1');
      }),
    ).rejects.toThrow();
    expect(await pidOf(pool)).not.toBe(pid);
  });
});
