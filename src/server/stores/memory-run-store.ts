import type { Checkpoint } from '../../agent/index.js';
import type { AgentEvent } from '../../core/index.js';
import {
  cursorAfter,
  DEFAULT_PAGE,
  DEFAULT_PRUNE_BATCH,
  type IdempotencyClaim,
  MAX_PAGE,
  type PruneRequest,
  type RunJournalEntry,
  type RunPage,
  type RunQuery,
  type RunRecord,
  type RunStore,
  type RunSummary,
  readCursor,
  type StoredEvent,
  UNFINISHED,
} from '../records/index.js';
import { pruneBoundsAfter } from './run-query-shapes.js';

/** A JSON copy, as a store that serialises would hand out: undefined fields dropped, no shared objects. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const unfinished = (status: string) => (UNFINISHED as readonly string[]).includes(status);

const newestFirst = (a: RunRecord, b: RunRecord) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1);

function summaryOf(run: RunRecord): RunSummary {
  const { id, agent, status, source, owner, createdAt, updatedAt, result } = run;
  const summary: RunSummary = { id, agent, status, source, createdAt, updatedAt };
  if (owner) summary.owner = owner;
  if (result?.durationMs !== undefined) summary.durationMs = result.durationMs;
  if (result?.steps) summary.steps = result.steps.length;
  if (result?.usage) summary.tokens = result.usage.promptTokens + result.usage.completionTokens;
  if (result?.usage?.costUsd !== undefined) summary.costUsd = result.usage.costUsd;
  return summary;
}

/** The runs of the query's page, newest first, after its cursor. */
function queryPage(runs: Iterable<RunRecord>, query: RunQuery): RunPage {
  const cursor = query.before === undefined ? undefined : readCursor(query.before);
  const limit = Math.min(Math.max(1, query.limit ?? DEFAULT_PAGE), MAX_PAGE);
  const found = [...runs]
    .filter(
      (run) =>
        (query.agent === undefined || run.agent === query.agent) &&
        (query.owner === undefined || run.owner === query.owner) &&
        (query.thread === undefined || run.thread === query.thread) &&
        (!query.status?.length || query.status.includes(run.status)) &&
        (!cursor || run.createdAt < cursor.createdAt || (run.createdAt === cursor.createdAt && run.id < cursor.id)),
    )
    .sort(newestFirst);
  const page = found.slice(0, limit).map(summaryOf);
  return found.length > limit ? { runs: page, next: cursorAfter(page[page.length - 1]) } : { runs: page };
}

/** The ended runs a prune request takes, oldest first (all of them: the caller takes a batch). */
function expiredRuns(runs: Iterable<RunRecord>, request: PruneRequest): RunRecord[] | undefined {
  const all = [...runs].sort(newestFirst);
  const newestPruned = request.keepNewest === undefined ? undefined : all[Math.max(0, request.keepNewest)]?.createdAt;
  const bounds = pruneBoundsAfter(request, newestPruned);
  if (!bounds) return undefined;
  return all
    .filter(
      (run) =>
        run.createdAt < bounds.createdBefore &&
        !unfinished(run.status) &&
        (run.updatedAt < bounds.endedBefore || run.createdAt < bounds.countBefore),
    )
    .reverse();
}

/** An Idempotency-Key claim's key in the claims map. */
const claimKey = (claim: Pick<IdempotencyClaim, 'scope' | 'key'>) => JSON.stringify([claim.scope, claim.key]);

/** A copy of what `map` keeps under `id`. */
const copied = <T>(map: Map<string, T>, id: string): T | undefined => {
  const value = map.get(id);
  return value && copy(value);
};

/**
 * Keeps runs, their events and checkpoints in memory, gone with the process: the run store for
 * Workers, Deno Deploy, Bun and tests, where SQLite cannot load (`createApp({ agents, store:
 * memoryRunStore() })`). A run cannot survive a restart here: pass a durable store where it must.
 */
export function memoryRunStore(): RunStore {
  const runs = new Map<string, RunRecord>();
  const events = new Map<string, StoredEvent[]>();
  const checkpoints = new Map<string, Checkpoint>();
  const journals = memoryJournals();
  const claims = new Map<string, IdempotencyClaim>();
  const store: RunStore = {
    async init() {},
    async createRun(run) {
      runs.set(run.id, copy(run));
    },
    getRun: async (id) => copied(runs, id),
    getStatus: async (id) => runs.get(id)?.status,
    getRuns: async (ids) => ids.flatMap((id) => (runs.has(id) ? [copy(runs.get(id)!)] : [])),
    async updateRun(id, patch) {
      const run = runs.get(id);
      if (!run) return;
      const next = copy({ ...run, ...patch });
      runs.set(id, next);
      // An ended run never resumes: its checkpoint goes, as the SQL stores drop it in the same commit.
      if (!unfinished(next.status)) checkpoints.delete(id);
    },
    async listRuns({ status, limit }) {
      const found = [...runs.values()]
        .filter((run) => status.includes(run.status))
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
      return found.slice(0, limit ?? found.length).map(copy);
    },
    queryRuns: async (query) => queryPage(runs.values(), query),
    async claimIdempotencyKey(claim, expiredBefore) {
      for (const [key, held] of claims) if (held.createdAt < expiredBefore) claims.delete(key);
      const key = claimKey(claim);
      if (!claims.has(key)) claims.set(key, { ...claim });
      return { ...claims.get(key)! };
    },
    async releaseIdempotencyKey(claim) {
      const key = claimKey(claim);
      if (claims.get(key)?.runId === claim.runId) claims.delete(key);
    },
    async appendEvent(runId, seq, event: AgentEvent) {
      const log = events.get(runId) ?? [];
      log.push({ seq, event: copy(event) });
      events.set(runId, log);
    },
    async readEvents(runId, afterSeq, limit) {
      const after = (events.get(runId) ?? []).filter((e) => e.seq > afterSeq);
      return copy(after.slice(0, limit ?? after.length));
    },
    lastSeq: async (runId) => events.get(runId)?.at(-1)?.seq ?? 0,
    async saveCheckpoint(checkpoint) {
      checkpoints.set(checkpoint.runId, copy(checkpoint));
    },
    loadCheckpoint: async (runId) => copied(checkpoints, runId),
    ...journals.methods,
    async pruneRuns(request) {
      const expired = expiredRuns(runs.values(), request);
      if (!expired) return { runs: 0 };
      if (request.dryRun) return { runs: expired.length };
      const batch = expired.slice(0, Math.max(1, request.limit ?? DEFAULT_PRUNE_BATCH));
      for (const { id } of batch) for (const map of [runs, events, checkpoints, journals.byRun]) map.delete(id);
      return { runs: batch.length };
    },
    async stats() {
      const byStatus: Record<string, number> = {};
      let oldest: number | undefined;
      for (const run of runs.values()) {
        byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
        if (oldest === undefined || run.createdAt < oldest) oldest = run.createdAt;
      }
      const bytes = JSON.stringify([[...runs.values()], [...events.values()], [...checkpoints.values()]]).length;
      return { runs: runs.size, byStatus, bytes, ...(oldest === undefined ? {} : { oldest }) };
    },
    async vacuum() {
      const { bytes } = await store.stats();
      return { bytesBefore: bytes, bytesAfter: bytes, ms: 0 };
    },
    async close() {},
  };
  return store;
}

/** Each run's journal records by key (a Map keeps the order keys were first written). */
function memoryJournals() {
  const byRun = new Map<string, Map<string, RunJournalEntry>>();
  const methods: Pick<RunStore, 'appendJournal' | 'readJournal'> = {
    async appendJournal(runId, entry) {
      const journal = byRun.get(runId) ?? new Map<string, RunJournalEntry>();
      journal.set(entry.key, copy(entry));
      byRun.set(runId, journal);
    },
    readJournal: async (runId) => copy([...(byRun.get(runId)?.values() ?? [])]),
  };
  return { byRun, methods };
}
