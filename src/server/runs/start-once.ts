import type { IdempotencyRequest, RunRecord, RunStore, StartRequest, StartResult } from '../records/index.js';
import { newRunId } from '../records/index.js';

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
export function startOnce({ store, request, start, keyHours }: StartOnceContext): Promise<StartResult> {
  return onceForKey<StartResult, RunRecord>({
    claims: store,
    scope: request.owner ?? '',
    idempotency: request.idempotency,
    keyHours,
    start,
    find: (id) => store.getRun(id),
    replay: (run) => ({ ok: true, run, replayed: true }),
    mismatch: (runId) => ({ ok: false, reason: 'idempotency_mismatch', runId }),
  });
}

/** What `onceForKey` needs: the claims, whose key it is, and how to start, find and answer a run. */
export interface OnceForKeyContext<R extends { ok: boolean }, Run> {
  claims: Pick<RunStore, 'claimIdempotencyKey' | 'releaseIdempotencyKey'>;
  /** The principal the key belongs to ('' for none): two callers' keys never meet. */
  scope: string;
  idempotency?: IdempotencyRequest;
  /** Hours a key holds its run. Default 24. */
  keyHours?: number;
  /** Starts the run under `id`; a result that is not `ok` frees the key. */
  start: (id: string) => Promise<R>;
  /** The run stored under `runId`, or undefined. */
  find: (runId: string) => Promise<Run | undefined>;
  /** The answer to a retry of the request that started `run`. */
  replay: (run: Run) => R;
  /** The answer to a request that reuses the key of another (held by `runId`). */
  mismatch: (runId: string) => R;
}

/** The claim loop of `startOnce`, for any kind of run (agent runs, workflow runs and their forks). */
export async function onceForKey<R extends { ok: boolean }, Run>(ctx: OnceForKeyContext<R, Run>): Promise<R> {
  const { claims, idempotency } = ctx;
  if (!idempotency) return ctx.start(newRunId());
  const holdMs = (ctx.keyHours ?? DEFAULT_IDEMPOTENCY_HOURS) * 3_600_000;
  for (;;) {
    const mine = { scope: ctx.scope, ...idempotency, runId: newRunId(), createdAt: Date.now() };
    const held = await claims.claimIdempotencyKey(mine, mine.createdAt - holdMs);
    if (held.runId === mine.runId) {
      let result: R;
      try {
        result = await ctx.start(mine.runId);
      } catch (error) {
        await releaseUnlessStored({ claims, claim: mine, find: ctx.find });
        throw error;
      }
      if (!result.ok) await claims.releaseIdempotencyKey(mine);
      return result;
    }
    if (held.fingerprint !== idempotency.fingerprint) return ctx.mismatch(held.runId);
    const run = await ctx.find(held.runId);
    if (run !== undefined) return ctx.replay(run);
    // The first request is storing its run right now; or it died before it could.
    if (Date.now() - held.createdAt > ORPHANED_CLAIM_MS) await claims.releaseIdempotencyKey(held);
    else await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What `releaseUnlessStored` needs: the claims, the claim, and how to look the run up. */
interface ReleaseContext {
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
async function releaseUnlessStored({ claims, claim, find }: ReleaseContext): Promise<void> {
  const stored = await find(claim.runId).then(
    (run) => run !== undefined,
    () => true,
  );
  if (!stored) await claims.releaseIdempotencyKey(claim).catch(() => {});
}
