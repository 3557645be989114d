import { type AgentEvent, type RunResult, redactedIfSecret } from '../../core/index.js';
import type { RunRecord, StoredEvent } from '../records/index.js';
import { compactFrom, expandRequests, type RequestEvent } from './compact-requests.js';
import { type RunRow, rowToRecord } from './row-codec.js';
import { createStringRestorer, hasSharedStrings, referencedSeqs, type StringRestorer } from './shared-strings.js';

/** How a store reads one run's log as stored, for rebuilding it. */
export interface StoredLog {
  runId: string;
  /** The stored events at these seqs (those that exist), as stored: one block or row each, not the log. */
  at(seqs: readonly number[]): Promise<Map<number, AgentEvent>>;
  /** The input in the run's row (undefined when there is no row). */
  input(): Promise<string | undefined>;
  /** Requests rebuilt by earlier reads of this store. */
  requests: RequestCache;
}

/**
 * Whole `model_request`s rebuilt by earlier reads, so the next page of a reader (its first request
 * is stored as what changed since the last one of the page before) does not rebuild the run's every
 * earlier request again. Least recently used entries go first.
 */
export interface RequestCache {
  get(runId: string, seq: number): RequestEvent | undefined;
  set(runId: string, seq: number, event: RequestEvent): void;
}

export function createRequestCache(max = 64): RequestCache {
  const entries = new Map<string, RequestEvent>();
  return {
    get(runId, seq) {
      const key = `${runId}:${seq}`;
      const found = entries.get(key);
      if (found) {
        entries.delete(key);
        entries.set(key, found);
      }
      return found;
    },
    set(runId, seq, event) {
      const key = `${runId}:${seq}`;
      entries.delete(key);
      entries.set(key, event);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
  };
}

/**
 * Rebuilds stored events as they were emitted, byte for byte: shared strings back in place
 * (`shared-strings.ts`), then each compact `model_request` whole (`compact-requests.ts`). What an event
 * here refers to before the first one is read where it is (`log.at`), never the log from its start,
 * so reading a run page by page costs time linear in its size.
 */
export async function rebuildEvents(range: StoredEvent[], log: StoredLog): Promise<StoredEvent[]> {
  if (range.length === 0) return range;
  const restored = await restoreStrings(range, log);
  const expanded = await expandRequests(restored, (seq) => requestAt(seq, log));
  // The next page's first request builds on the last one here.
  const last = expanded.findLast((stored) => stored.event.type === 'model_request');
  if (last) log.requests.set(log.runId, last.seq, last.event as RequestEvent);
  return expanded;
}

/** Events with their shared strings back, the strings they refer to before them read where they are. */
async function restoreStrings(events: StoredEvent[], log: StoredLog): Promise<StoredEvent[]> {
  if (!events.some((stored) => hasSharedStrings(stored.event))) return events;
  const restorer = createStringRestorer();
  await seedEarlier(sharedRefs(events), events[0].seq, log, restorer);
  return events.map((stored) => {
    const event = restorer.event(log.runId, stored.seq, stored.event);
    return event === stored.event ? stored : { seq: stored.seq, event };
  });
}

/** Gives the restorer the strings at `refs` before `first`: the input, and each event referred to. */
async function seedEarlier(refs: Set<number>, first: number, log: StoredLog, restorer: StringRestorer) {
  if (refs.has(0)) restorer.input((await log.input()) ?? '');
  const earlier = [...refs].filter((seq) => seq > 0 && seq < first);
  if (earlier.length === 0) return;
  for (const [seq, event] of await log.at(earlier)) restorer.seed(seq, event);
}

/** The whole request stored at `seq`: walks back to one cached or stored whole, then rebuilds forward. */
async function requestAt(seq: number, log: StoredLog): Promise<RequestEvent> {
  const cached = log.requests.get(log.runId, seq);
  if (cached) return cached;
  const chain: StoredEvent[] = [];
  for (let at: number | undefined = seq; at !== undefined && !log.requests.get(log.runId, at); ) {
    const stored = (await log.at([at])).get(at);
    // A log missing the request another refers to was damaged outside thinkflow: say so rather than guess.
    if (stored?.type !== 'model_request') {
      throw new Error(`The stored model_request at seq ${at} that a later request builds on is missing.`);
    }
    const [event] = await restoreStrings([{ seq: at, event: stored }], log);
    chain.unshift(event);
    at = compactFrom(event.event);
  }
  const rebuilt = await expandRequests(chain, async (from) => {
    const found = log.requests.get(log.runId, from);
    if (!found) throw new Error(`The stored model_request at seq ${from} that a later request builds on is missing.`);
    return found;
  });
  for (const stored of rebuilt) log.requests.set(log.runId, stored.seq, stored.event as RequestEvent);
  return rebuilt[rebuilt.length - 1].event as RequestEvent;
}

/** A stored result as it was: its shared strings read back from the events that hold them. */
async function rebuildResult(stored: unknown, log: StoredLog): Promise<RunResult> {
  const restorer = createStringRestorer();
  if (hasSharedStrings(stored)) await seedEarlier(referencedSeqs(stored), Number.POSITIVE_INFINITY, log, restorer);
  return restorer.result(log.runId, stored);
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

/** `recordFromRow` for each row, each with its run's log. */
export function recordsFromRows(rows: readonly RunRow[], logOf: (runId: string) => StoredLog): Promise<RunRecord[]> {
  return Promise.all(rows.map((row) => recordFromRow(row, logOf(row.id))));
}
