import type pg from 'pg';

/**
 * Runs `work` on one client taken from the pool, and gives it back however `work` ends.
 *
 * While a client is out of the pool, pg-pool no longer listens for its `error` event. A connection the
 * server drops between two queries (a restart, a failover, `pg_ctl stop`) would then emit `error` to
 * nobody, and Node ends the process. Here the error is caught for as long as the client is held, and a
 * client that lost its connection, or whose work threw, is destroyed on release instead of going back to
 * the pool (with it go any session locks it held), unless `work` called `clean()` before it threw: it
 * put the session back as it found it (a rolled-back transaction), and the connection is kept.
 */
export async function withPooledClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, clean: () => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  let reusable = false;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  try {
    const result = await work(client, () => {
      reusable = true;
    });
    client.off('error', onError);
    client.release(lost);
    return result;
  } catch (error) {
    client.off('error', onError);
    client.release(lost ?? (reusable ? undefined : error instanceof Error ? error : true));
    throw error;
  }
}

/**
 * Runs `work` on one pooled client between BEGIN and COMMIT, rolling back when it throws. A client whose
 * rollback went through goes back to the pool (a refused insert costs no new connection); one whose
 * rollback failed is destroyed.
 */
export function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withPooledClient(pool, async (client, clean) => {
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      if (rolledBack) clean();
      throw error;
    }
  });
}

/**
 * Runs `create` (a schema's CREATE … IF NOT EXISTS statements) in one transaction holding an advisory
 * lock on the schema's name. Processes starting together on a new schema (serve and a worker, or
 * several memory stores) race in those statements, and the loser fails with a unique violation on
 * the catalog; under the lock they take turns, and the later ones find everything already made.
 *
 * @example
 * await withSchemaLock({ pool, schema: 'thinkflow' }, (client) => client.query(ddl));
 */
export function withSchemaLock<T>(
  target: { pool: pg.Pool; schema: string },
  create: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(target.pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`thinkflow:schema:${target.schema}`]);
    return create(client);
  });
}
