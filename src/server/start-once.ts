import { newRunId } from './new-run-id.js';
import type { StartRequest, StartResult } from './run-service.js';
import type { RunStore } from './stores/run-store.js';

/** How long an Idempotency-Key holds its run, unless the limits say otherwise. */
export const DEFAULT_IDEMPOTENCY_HOURS = 24;

/**
 * A claim whose run is still missing after this long was left by a process that died between claiming
 * and storing the run (or its run was pruned): the key is free again.
 */
const ORPHANED_CLAIM_MS = 10_000;

/** What `startOnce` needs: the shared store, the request, and how the service starts a run under an id. */
export interface StartOnceContext {
  store: Pick<RunStore, 'claimIdempotencyKey' | 'releaseIdempotencyKey' | 'getRun'>;
  request: StartRequest;
  /** Starts the run under `id` (the service's own checks, queue and store write). */
  start: (id: string) => Promise<StartResult>;
  /** Hours a key holds its run. Default 24. */
  keyHours?: number;
}

/**
 * Starts a run exactly once per Idempotency-Key: the key is claimed in the store (atomically, across
 * processes) under the new run's id before the run is started. A request whose key is held by the same
 * request gets the first run back (`replayed`), however many retries and concurrent copies arrive; one
 * with another fingerprint is refused. A refused start (queue full, unknown agent) releases the key, so
 * a retry may start the run later. A start that failed is released only once the store says its run is
 * not there: a commit whose answer was lost (the connection dropped after COMMIT) left the run stored,
 * and a retry must get it back, not start a second one. Without a key, the run simply starts.
 */
export async function startOnce({ store, request, start, keyHours }: StartOnceContext): Promise<StartResult> {
  const { idempotency } = request;
  if (!idempotency) return start(newRunId());
  const scope = request.owner ?? '';
  const holdMs = (keyHours ?? DEFAULT_IDEMPOTENCY_HOURS) * 3_600_000;
  for (;;) {
    const mine = { scope, ...idempotency, runId: newRunId(), createdAt: Date.now() };
    const held = await store.claimIdempotencyKey(mine, mine.createdAt - holdMs);
    if (held.runId === mine.runId) {
      let result: StartResult;
      try {
        result = await start(mine.runId);
      } catch (error) {
        await releaseUnlessStored({ claims: store, claim: mine, find: (id) => store.getRun(id) });
        throw error;
      }
      if (!result.ok) await store.releaseIdempotencyKey(mine);
      return result;
    }
    if (held.fingerprint !== idempotency.fingerprint) {
      return { ok: false, reason: 'idempotency_mismatch', runId: held.runId };
    }
    const run = await store.getRun(held.runId);
    if (run) return { ok: true, run, replayed: true };
    // The first request is storing its run right now; or it died before it could.
    if (Date.now() - held.createdAt > ORPHANED_CLAIM_MS) await store.releaseIdempotencyKey(held);
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What `releaseUnlessStored` needs: the claims, the claim, and how to look the run up. */
export interface ReleaseContext {
  claims: Pick<RunStore, 'releaseIdempotencyKey'>;
  claim: { scope: string; key: string; runId: string };
  /** Resolves with the run, or undefined if it is not stored. */
  find: (runId: string) => Promise<unknown>;
}

/**
 * Frees the key of a start that threw, unless its run was stored after all. A store that cannot say
 * keeps the key: a retry waits for the run, and the key frees itself `ORPHANED_CLAIM_MS` after its claim
 * if the run never shows up.
 */
export async function releaseUnlessStored({ claims, claim, find }: ReleaseContext): Promise<void> {
  const stored = await find(claim.runId).then(
    (run) => run !== undefined,
    () => true,
  );
  if (!stored) await claims.releaseIdempotencyKey(claim).catch(() => {});
}
