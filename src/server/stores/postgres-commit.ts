import type { RunPatch, RunRecord } from '../run-record.js';
import type { WriteBatch } from './write-batch.js';

/** Bits of a patch's mask: which columns it sets (a set `questions: undefined` clears them). */
const PATCH_BITS: Record<keyof RunPatch, number> = {
  status: 1,
  result: 2,
  questions: 4,
  cancelRequested: 8,
  updatedAt: 16,
};

const set = (column: string, bit: number) =>
  `${column} = CASE WHEN (p.mask & ${bit}) <> 0 THEN p.${column} ELSE r.${column} END`;

/**
 * One statement that commits a whole write batch: creates, patches, events and checkpoints as
 * arrays, unnested by data-modifying CTEs. One statement is one implicit transaction and one round
 * trip, where BEGIN, a query per kind of write and COMMIT took five or more. The text is the same
 * for every batch, so each connection prepares it once.
 */
export function commitStatement(schema: string): string {
  const s = schema;
  return `WITH created AS (
  INSERT INTO ${s}.runs (id, agent, input, history, status, source, created_at, updated_at, result, questions, cancel_requested)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[],
    $9::text[], $10::text[], $11::boolean[])
), patched AS (
  UPDATE ${s}.runs AS r SET ${set('status', PATCH_BITS.status)}, ${set('result', PATCH_BITS.result)},
    ${set('questions', PATCH_BITS.questions)}, ${set('cancel_requested', PATCH_BITS.cancelRequested)},
    ${set('updated_at', PATCH_BITS.updatedAt)}
  FROM unnest($12::text[], $13::int[], $14::text[], $15::text[], $16::text[], $17::boolean[], $18::bigint[])
    AS p(id, mask, status, result, questions, cancel_requested, updated_at)
  WHERE r.id = p.id
), logged AS (
  INSERT INTO ${s}.run_events (run_id, seq, event)
  SELECT * FROM unnest($19::text[], $20::int[], $21::text[])
  ON CONFLICT (run_id, seq) DO UPDATE SET event = EXCLUDED.event
), saved AS (
  INSERT INTO ${s}.run_checkpoints (run_id, checkpoint, updated_at)
  SELECT r, c, $24 FROM unnest($22::text[], $23::text[]) AS t(r, c)
  ON CONFLICT (run_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, updated_at = EXCLUDED.updated_at
)
SELECT 1`;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * The parameters of `commitStatement` for a batch. All parts of one statement see the same snapshot,
 * so a patch cannot update a row created in the same batch: such patches are folded into the create.
 */
export function commitValues(batch: WriteBatch, now = Date.now()): unknown[] {
  const creates = new Map<string, RunRecord>();
  for (const run of batch.creates) creates.set(run.id, run);
  const patches: [string, RunPatch][] = [];
  for (const [id, patch] of batch.patches) {
    const created = creates.get(id);
    if (created) creates.set(id, { ...created, ...patch });
    else patches.push([id, patch]);
  }
  const runs = [...creates.values()];
  const mask = (patch: RunPatch) => {
    let bits = 0;
    for (const key in patch) bits |= PATCH_BITS[key as keyof RunPatch] ?? 0;
    return bits;
  };
  const checkpoints = [...batch.checkpoints];
  return [
    runs.map((run) => run.id),
    runs.map((run) => run.agent),
    runs.map((run) => run.input),
    runs.map((run) => (run.history ? JSON.stringify(run.history) : null)),
    runs.map((run) => run.status),
    runs.map((run) => run.source),
    runs.map((run) => run.createdAt),
    runs.map((run) => run.updatedAt),
    runs.map((run) => json(run.result)),
    runs.map((run) => json(run.questions)),
    runs.map((run) => Boolean(run.cancelRequested)),
    patches.map(([id]) => id),
    patches.map(([, patch]) => mask(patch)),
    patches.map(([, patch]) => patch.status ?? null),
    patches.map(([, patch]) => json(patch.result)),
    patches.map(([, patch]) => json(patch.questions)),
    patches.map(([, patch]) => Boolean(patch.cancelRequested)),
    patches.map(([, patch]) => patch.updatedAt ?? null),
    batch.events.map((e) => e.runId),
    batch.events.map((e) => e.seq),
    batch.events.map((e) => JSON.stringify(e.event)),
    checkpoints.map(([id]) => id),
    checkpoints.map(([, checkpoint]) => JSON.stringify(checkpoint)),
    now,
  ];
}

/** True when the batch writes nothing. */
export function isEmptyBatch(batch: WriteBatch): boolean {
  return (
    batch.creates.length === 0 && batch.patches.size === 0 && batch.events.length === 0 && batch.checkpoints.size === 0
  );
}
