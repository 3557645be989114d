import type { Checkpoint } from '../../agent/index.js';
import { isFinished, type RunPatch, type RunRecord } from '../records/index.js';
import type { RequestCompactor } from './compact-requests.js';
import type { StoredCheckpoint } from './open-run-memo.js';
import type { StringSharer } from './shared-strings.js';
import { storedStepJson, type WriteBatch } from './write-batch.js';

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
 * trip, where BEGIN, a query per kind of write and COMMIT took five or more. Events, steps and
 * checkpoints travel as one JSON array each, serialized once and not escaped again into an array
 * literal; `json_array_elements` keeps each element's text as sent (`\u0000` included). The text
 * is the same for every batch, so each connection prepares it once.
 */
export function commitStatement(schema: string): string {
  const s = schema;
  return `WITH created AS (
  INSERT INTO ${s}.runs (id, agent, input, history, status, source, created_at, updated_at, result, questions, cancel_requested, owner, caller, forked_from, thread)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[],
    $9::text[], $10::text[], $11::boolean[], $29::text[], $32::text[], $33::text[], $34::text[])
  -- A commit retried after its answer was lost (the connection dropped) may find its runs there already.
  ON CONFLICT (id) DO NOTHING
), outboxed AS (
  INSERT INTO ${s}.run_outbox (run_id, created_at) SELECT unnest($30::text[]), $27 ON CONFLICT (run_id) DO NOTHING
), relayed AS (
  DELETE FROM ${s}.run_outbox WHERE run_id = ANY($31::text[]) OR run_id = ANY($28::text[])
), patched AS (
  UPDATE ${s}.runs AS r SET ${set('status', PATCH_BITS.status)}, ${set('result', PATCH_BITS.result)},
    ${set('questions', PATCH_BITS.questions)}, ${set('cancel_requested', PATCH_BITS.cancelRequested)},
    ${set('updated_at', PATCH_BITS.updatedAt)}
  FROM unnest($12::text[], $13::int[], $14::text[], $15::text[], $16::text[], $17::boolean[], $18::bigint[])
    AS p(id, mask, status, result, questions, cancel_requested, updated_at)
  WHERE r.id = p.id
), logged AS (
  INSERT INTO ${s}.run_events (run_id, seq, event)
  SELECT r, i, e::text FROM unnest($19::text[], $20::int[]) WITH ORDINALITY AS k(r, i, n)
    JOIN json_array_elements($21::json) WITH ORDINALITY AS j(e, n) USING (n)
  ON CONFLICT (run_id, seq) DO UPDATE SET event = EXCLUDED.event
), stepped AS (
  INSERT INTO ${s}.run_steps (run_id, idx, step)
  SELECT r, i, e::text FROM unnest($22::text[], $23::int[]) WITH ORDINALITY AS k(r, i, n)
    JOIN json_array_elements($24::json) WITH ORDINALITY AS j(e, n) USING (n)
  ON CONFLICT (run_id, idx) DO UPDATE SET step = EXCLUDED.step
), saved AS (
  INSERT INTO ${s}.run_checkpoints (run_id, checkpoint, updated_at)
  SELECT r, e::text, $27 FROM unnest($25::text[]) WITH ORDINALITY AS k(r, n)
    JOIN json_array_elements($26::json) WITH ORDINALITY AS j(e, n) USING (n)
  ON CONFLICT (run_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, updated_at = EXCLUDED.updated_at
), ended_checkpoints AS (
  DELETE FROM ${s}.run_checkpoints WHERE run_id = ANY($28::text[])
), ended_steps AS (
  DELETE FROM ${s}.run_steps WHERE run_id = ANY($28::text[])
)
SELECT 1`;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * The parameters of `commitStatement` for a batch. All parts of one statement see the same snapshot,
 * so a patch cannot update a row created in the same batch: such patches are folded into the create.
 * `stepsStored` says how many steps of each run are stored already; only the steps after them are written.
 * `encoders` store each model_request as what changed since the run's previous one, and a run's
 * long strings once.
 */
export function commitValues(
  batch: WriteBatch,
  stepsStored: ReadonlyMap<string, number>,
  encoders?: { requests: RequestCompactor; strings: StringSharer },
  now = Date.now(),
): unknown[] {
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
  const steps: { runId: string; index: number; step: Checkpoint['steps'][number] }[] = [];
  const checkpoints: StoredCheckpoint[] = [];
  // A run that ends in this batch drops its checkpoint (it only serves to resume): none is written for it.
  const ended = [...batch.patches].filter(([, patch]) => patch.status && isFinished(patch.status)).map(([id]) => id);
  const endedSet = new Set(ended);
  for (const [runId, checkpoint] of batch.checkpoints) {
    if (endedSet.has(runId)) continue;
    const all = checkpoint.steps;
    for (let index = Math.min(stepsStored.get(runId) ?? 0, all.length); index < all.length; index++)
      steps.push({ runId, index, step: all[index] });
    checkpoints.push({ ...checkpoint, steps: undefined, stepCount: all.length });
  }
  for (const run of runs) encoders?.strings.start(run.id, run.input);
  const events = batch.events.map((e) =>
    encoders
      ? encoders.strings.encodeEvent(e.runId, e.seq, encoders.requests.encode(e.runId, e.seq, e.event))
      : e.event,
  );
  // After the events: a result's strings refer to the events that carry them first.
  const result = (id: string, value: RunPatch['result']) =>
    json(value && encoders ? encoders.strings.encodeResult(id, value) : value);
  return [
    runs.map((run) => run.id),
    runs.map((run) => run.agent),
    runs.map((run) => run.input),
    runs.map((run) => (run.history ? JSON.stringify(run.history) : null)),
    runs.map((run) => run.status),
    runs.map((run) => run.source),
    runs.map((run) => run.createdAt),
    runs.map((run) => run.updatedAt),
    runs.map((run) => result(run.id, run.result)),
    runs.map((run) => json(run.questions)),
    runs.map((run) => Boolean(run.cancelRequested)),
    patches.map(([id]) => id),
    patches.map(([, patch]) => mask(patch)),
    patches.map(([, patch]) => patch.status ?? null),
    patches.map(([id, patch]) => result(id, patch.result)),
    patches.map(([, patch]) => json(patch.questions)),
    patches.map(([, patch]) => Boolean(patch.cancelRequested)),
    patches.map(([, patch]) => patch.updatedAt ?? null),
    batch.events.map((e) => e.runId),
    batch.events.map((e) => e.seq),
    JSON.stringify(events),
    steps.map((s) => s.runId),
    steps.map((s) => s.index),
    `[${steps.map((s) => storedStepJson(s.step)).join(',')}]`,
    checkpoints.map((c) => c.runId),
    JSON.stringify(checkpoints),
    now,
    ended,
    runs.map((run) => run.owner ?? null),
    batch.outbox,
    batch.enqueued,
    runs.map((run) => json(run.caller)),
    runs.map((run) => json(run.forkedFrom)),
    runs.map((run) => run.thread ?? null),
  ];
}

/** True when the batch writes nothing. */
export function isEmptyBatch(batch: WriteBatch): boolean {
  return (
    batch.creates.length === 0 &&
    batch.patches.size === 0 &&
    batch.events.length === 0 &&
    batch.checkpoints.size === 0 &&
    batch.outbox.length === 0 &&
    batch.enqueued.length === 0
  );
}
