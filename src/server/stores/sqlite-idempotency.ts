import type Database from 'better-sqlite3';
import { type ClaimRow, claimFromRow, EXPIRED_CLAIMS_PER_CLAIM, type IdempotencyClaim } from '../records/index.js';

/**
 * Records `claim` unless its key is held, in one transaction: the claim holding the key afterwards (this
 * one, or the one made first). Claims made before `expiredBefore` are dropped first (this key's, and a
 * bounded batch of others), so keys expire without a sweep of their own. SQLite serializes writers, so
 * of two processes claiming one key on one file exactly one wins.
 */
export function sqliteClaimKey(
  db: Database.Database,
  claim: IdempotencyClaim,
  expiredBefore: number,
): IdempotencyClaim {
  return db
    .transaction(() => {
      db.prepare(
        `DELETE FROM run_idempotency_keys WHERE rowid IN
          (SELECT rowid FROM run_idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
      ).run(expiredBefore, EXPIRED_CLAIMS_PER_CLAIM);
      db.prepare('DELETE FROM run_idempotency_keys WHERE scope = ? AND key = ? AND created_at < ?').run(
        claim.scope,
        claim.key,
        expiredBefore,
      );
      db.prepare(
        `INSERT INTO run_idempotency_keys (scope, key, fingerprint, run_id, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (scope, key) DO NOTHING`,
      ).run(claim.scope, claim.key, claim.fingerprint, claim.runId, claim.createdAt);
      const row = db
        .prepare('SELECT * FROM run_idempotency_keys WHERE scope = ? AND key = ?')
        .get(claim.scope, claim.key) as ClaimRow;
      return claimFromRow(row);
    })
    .immediate();
}

/** Drops a claim if `runId` still holds it (its run was refused, or never came to be). */
export function sqliteReleaseKey(
  db: Database.Database,
  claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'runId'>,
): void {
  db.prepare('DELETE FROM run_idempotency_keys WHERE scope = ? AND key = ? AND run_id = ?').run(
    claim.scope,
    claim.key,
    claim.runId,
  );
}
