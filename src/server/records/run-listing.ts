import { z } from 'zod';
import { ServerRunStatus } from './run-record.js';

/** Which runs a listing returns. Pages go newest first; `before` is the last id of the previous page. */
export interface RunQuery {
  agent?: string;
  /** Only runs this principal started (a caller who is not an admin sees only these). */
  owner?: string;
  status?: readonly ServerRunStatus[];
  /** Only the runs of this conversation thread (`RunRecord.thread`). */
  thread?: string;
  /** Runs created before this one (a cursor: the previous page's `next`). */
  before?: string;
  /** At most this many (default 50). */
  limit?: number;
}

/** One run in a listing: what it was, how it went, and what it cost, without its steps. */
export const RunSummary = z.object({
  id: z.string(),
  agent: z.string(),
  status: ServerRunStatus,
  source: z.string(),
  /** The principal who started it, when known. */
  owner: z.string().optional(),
  /** When the run was created (ms since the epoch). */
  createdAt: z.number(),
  updatedAt: z.number(),
  /** How long the agent ran, once it ended. */
  durationMs: z.number().optional(),
  /** Steps taken, once it ended. */
  steps: z.number().optional(),
  /** Prompt plus completion tokens, once it ended. */
  tokens: z.number().optional(),
  /** US dollars, when the model has a known price. */
  costUsd: z.number().optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** A page of summaries and the cursor of the next one (absent on the last page). */
export const RunPage = z.object({ runs: z.array(RunSummary), next: z.string().optional() });
export type RunPage = z.infer<typeof RunPage>;

/** What a prune deletes: finished runs created and ended before `olderThan`, or beyond the newest `keepNewest`. */
export interface PruneRequest {
  /** Epoch ms: runs created and ended before this are expired. */
  olderThan?: number;
  /** Keep this many newest runs; finished runs created before them are expired (runs created in the same millisecond as the oldest one kept may go too). */
  keepNewest?: number;
  /** Runs deleted in one batch (one transaction). Default 500. */
  limit?: number;
  /** Count the expired runs, delete nothing. */
  dryRun?: boolean;
}

/** `skipped`: another process holds the prune lock (PostgreSQL). */
export interface PruneResult {
  /** Runs deleted (or, with `dryRun`, that would be: all of them, not one batch). */
  runs: number;
  skipped?: boolean;
}

/** Sizes of a run store. */
export const RunStoreStats = z.object({
  runs: z.number(),
  byStatus: z.record(z.string(), z.number()),
  /** Creation time of the oldest run kept (ms since the epoch). */
  oldest: z.number().optional(),
  /** Bytes the store takes (the SQLite file; the PostgreSQL tables with indexes and TOAST). */
  bytes: z.number(),
  /** Of `bytes`, pages free for reuse (SQLite). */
  freeBytes: z.number().optional(),
  /** False for a SQLite file made before incremental vacuum and too large to convert at open: `thinkflow runs vacuum` converts it. */
  incrementalVacuum: z.boolean().optional(),
});
export type RunStoreStats = z.infer<typeof RunStoreStats>;

/** What `thinkflow runs vacuum` did: the store's size before and after, and how long it took. */
export interface VacuumResult {
  bytesBefore: number;
  bytesAfter: number;
  ms: number;
}

/** The batch size of a prune when none is given: small enough that one batch never stalls serving. */
export const DEFAULT_PRUNE_BATCH = 500;

/** Default page size of a listing, and the most one page may hold. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;

/** The cursor after a run: its creation time and id (ids alone need not sort by time in old stores). */
export function cursorAfter(run: Pick<RunSummary, 'createdAt' | 'id'>): string {
  return `${run.createdAt}.${run.id}`;
}

/** Reads a cursor made by `cursorAfter`; undefined when it is not one. */
export function readCursor(cursor: string): { createdAt: number; id: string } | undefined {
  const dot = cursor.indexOf('.');
  const createdAt = Number(cursor.slice(0, dot));
  if (dot <= 0 || !Number.isSafeInteger(createdAt) || dot === cursor.length - 1) return undefined;
  return { createdAt, id: cursor.slice(dot + 1) };
}

/** The creation-time bound below which finished runs are expired, from a prune request and the store's clock. */
export interface PruneBounds {
  /** Expired if created before this (the wider of the age and count bounds)... */
  createdBefore: number;
  /** ...and ended before this, or created before `countBefore`. */
  endedBefore: number;
  countBefore: number;
}

/**
 * Combines the two ways a run expires into one range scan on `created_at`: by age (created and ended
 * before `olderThan`) or by count (created before `countBefore`, the creation time of the newest run
 * past the `keepNewest` kept, which the store looks up). -1 stands for "no bound" (times are positive).
 */
export function pruneBounds(request: PruneRequest, countBefore: number | undefined): PruneBounds | undefined {
  const endedBefore = request.olderThan ?? -1;
  const count = request.keepNewest === undefined ? -1 : (countBefore ?? -1);
  const createdBefore = Math.max(endedBefore, count);
  return createdBefore > 0 ? { createdBefore, endedBefore, countBefore: count } : undefined;
}

/** A summary from a row of the listing queries (both stores select the same columns). */
export function summaryFromRow(row: {
  id: string;
  agent: string;
  status: string;
  source: string;
  created_at: number | string;
  updated_at: number | string;
  duration_ms: number | string | null;
  steps: number | string | null;
  tokens: number | string | null;
  cost_usd: number | string | null;
  owner?: string | null;
}): RunSummary {
  const summary: RunSummary = {
    id: row.id,
    agent: row.agent,
    status: row.status as ServerRunStatus,
    source: row.source,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.owner) summary.owner = row.owner;
  if (row.duration_ms !== null) summary.durationMs = Number(row.duration_ms);
  if (row.steps !== null) summary.steps = Number(row.steps);
  if (row.tokens !== null) summary.tokens = Number(row.tokens);
  if (row.cost_usd !== null) summary.costUsd = Number(row.cost_usd);
  return summary;
}
