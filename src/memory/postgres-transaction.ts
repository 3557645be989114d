import type pg from 'pg';

/** Runs `work` on one pooled client between BEGIN and COMMIT, rolling back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
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
