import { type RunResult, redactedIfSecret } from '../../core/index.js';
import type { RunRecord, StoredEvent } from '../run-record.js';
import { expandRequests } from './compact-requests.js';
import { type RunRow, rowToRecord } from './row-codec.js';
import { createStringRestorer, hasSharedStrings, referencedSeqs, type StringRestorer } from './shared-strings.js';

/** How a store reads one run's log as stored, for rebuilding it. */
export interface StoredLog {
  runId: string;
  /** Stored events with `seq > afterSeq`, in order, at most `limit`. */
  read(afterSeq: number, limit: number): Promise<StoredEvent[]>;
  /** The input in the run's row (undefined when there is no row). */
  input(): Promise<string | undefined>;
}

/**
 * Rebuilds stored events as they were emitted, byte for byte: shared strings back in place
 * (`shared-strings.ts`), then each compact `model_request` whole (`compact-requests.ts`). Earlier
 * events are read only when an event here refers back past the first one.
 */
export async function rebuildEvents(range: StoredEvent[], log: StoredLog): Promise<StoredEvent[]> {
  if (range.length === 0) return range;
  const first = range[0].seq;
  const refs = sharedRefs(range);
  const earlierStored = [...refs].some((seq) => seq > 0 && seq < first) ? await log.read(0, first - 1) : undefined;
  const restored = await restoreStrings([...(earlierStored ?? []), ...range], log);
  const split = earlierStored?.length ?? 0;
  const earlier = restored.slice(0, split);
  return expandRequests(restored.slice(split), async (before) =>
    earlierStored ? earlier : restoreStrings(await log.read(0, before - 1), log),
  );
}

/** A stored result as it was: its shared strings read back from the run's events. */
async function rebuildResult(stored: unknown, log: StoredLog): Promise<RunResult> {
  const restorer = createStringRestorer();
  if (!hasSharedStrings(stored)) return restorer.result(log.runId, stored);
  const refs = referencedSeqs(stored);
  if (refs.has(0)) restorer.input((await log.input()) ?? '');
  const last = Math.max(0, ...refs);
  if (last > 0) await restoreStrings(await log.read(0, last), log, restorer);
  return restorer.result(log.runId, stored);
}

async function restoreStrings(
  events: StoredEvent[],
  log: StoredLog,
  restorer: StringRestorer = createStringRestorer(),
): Promise<StoredEvent[]> {
  if (!events.some((stored) => hasSharedStrings(stored.event))) return events;
  if (sharedRefs(events).has(0)) restorer.input((await log.input()) ?? '');
  return events.map((stored) => {
    const event = restorer.event(log.runId, stored.seq, stored.event);
    return event === stored.event ? stored : { seq: stored.seq, event };
  });
}

function sharedRefs(events: StoredEvent[]): Set<number> {
  const refs = new Set<number>();
  for (const stored of events) if (hasSharedStrings(stored.event)) referencedSeqs(stored.event, refs);
  return refs;
}

/**
 * A stored run row as a record, its result rebuilt when it was stored with shared strings. Redacted
 * again as it is written (`write-batch.ts`), for rows stored before runs were redacted.
 */
export async function recordFromRow(row: RunRow, log: StoredLog): Promise<RunRecord> {
  const record = rowToRecord(row);
  if (record.result) record.result = await rebuildResult(record.result, log);
  return redactedIfSecret(record);
}
