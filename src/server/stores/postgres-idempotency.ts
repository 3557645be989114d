import type pg from 'pg';
import { claimFromRow, EXPIRED_CLAIMS_PER_CLAIM, type IdempotencyClaim } from '../records/index.js';

/**
 * Records `claim` unless its key is held: the claim holding the key afterwards (this one, or the one made
 * first). The primary key decides between API servers claiming one key at once: exactly one insert wins,
 * the others read the winner. Claims made before `expiredBefore` are dropped first (a bounded batch).
 */
export async function postgresClaimKey(
  pool: pg.Pool,
  schema: string,
  claim: IdempotencyClaim,
  expiredBefore: number,
): Promise<IdempotencyClaim> {
  const table = `${schema}.run_idempotency_keys`;
  await pool.query(
    `DELETE FROM ${table} WHERE (scope, key) IN
       (SELECT scope, key FROM ${table} WHERE created_at < $1 ORDER BY created_at LIMIT $2)
       OR (scope = $3 AND key = $4 AND created_at < $1)`,
    [expiredBefore, EXPIRED_CLAIMS_PER_CLAIM, claim.scope, claim.key],
  );
  for (;;) {
    const inserted = await pool.query(
      `INSERT INTO ${table} (scope, key, fingerprint, run_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (scope, key) DO NOTHING RETURNING *`,
      [claim.scope, claim.key, claim.fingerprint, claim.runId, claim.createdAt],
    );
    if (inserted.rows[0]) return claimFromRow(inserted.rows[0]);
    const held = await pool.query(`SELECT * FROM ${table} WHERE scope = $1 AND key = $2`, [claim.scope, claim.key]);
    // Released between the insert and the read: claim again.
    if (held.rows[0]) return claimFromRow(held.rows[0]);
  }
}

/** Drops a claim if `runId` still holds it. */
export async function postgresReleaseKey(
  pool: pg.Pool,
  schema: string,
  claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'runId'>,
): Promise<void> {
  await pool.query(`DELETE FROM ${schema}.run_idempotency_keys WHERE scope = $1 AND key = $2 AND run_id = $3`, [
    claim.scope,
    claim.key,
    claim.runId,
  ]);
}
