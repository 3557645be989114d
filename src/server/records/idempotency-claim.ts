/**
 * An Idempotency-Key as the run store keeps it: the run the key started, and a fingerprint of the request
 * that started it, so a retry gets that run and a different request under the same key is refused.
 */
export interface IdempotencyClaim {
  /** Whose key it is: the caller's principal, `''` on an open server. Two callers' keys never meet. */
  scope: string;
  key: string;
  /** A hash of the request (method, path, query and body). */
  fingerprint: string;
  runId: string;
  /** When the key was claimed (ms since the epoch). */
  createdAt: number;
}

/** Expired claims are dropped as new ones are made, at most this many per claim. */
export const EXPIRED_CLAIMS_PER_CLAIM = 100;

/** A claim row as both stores keep it. */
export interface ClaimRow {
  scope: string;
  key: string;
  fingerprint: string;
  run_id: string;
  created_at: number | string;
}

export function claimFromRow(row: ClaimRow): IdempotencyClaim {
  return {
    scope: row.scope,
    key: row.key,
    fingerprint: row.fingerprint,
    runId: row.run_id,
    createdAt: Number(row.created_at),
  };
}
