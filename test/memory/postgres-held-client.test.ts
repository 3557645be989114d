import { afterEach, describe, expect, it } from 'vitest';
import { openSchemaPool, withPooledClient } from '../../src/memory/index.js';
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
