import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/index.js';
import { emptyStats } from '../../../src/core/index.js';
import type { RunRecord, RunStore, ServerRunStatus } from '../../../src/server/index.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

function run(id: string, status: ServerRunStatus, createdAt: number, updatedAt = createdAt): RunRecord {
  const record: RunRecord = { id, agent: 'a', input: `input ${id}`, status, source: 'api', createdAt, updatedAt };
  if (status === 'done')
    record.result = {
      runId: id,
      status: 'done',
      output: 'ok',
      steps: [{ index: 0, kind: 'final', raw: 'ok', answer: 'ok' } as never, { index: 1 } as never],
      usage: { promptTokens: 100, completionTokens: 20, llmCalls: 2, costUsd: 0.5 },
      stats: emptyStats(),
      durationMs: 1234,
    };
  return record;
}

const event = (runId: string): AgentEvent => ({ type: 'step_start', runId, ts: 1, step: 0 });

/** Retention, listing and stats: the behaviour every RunStore must have. */
export function runStoreRetentionContract(
  name: string,
  create: () => Promise<{ store: RunStore; cleanup: () => Promise<void> }>,
) {
  describe(`${name} (retention and listing contract)`, () => {
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await create());
    });
    afterEach(async () => {
      await cleanup();
    });

    /** Old runs of every status, each with an event, a step and a checkpoint, and one recent finished run. */
    async function seed(): Promise<void> {
      const old = NOW - 40 * DAY;
      const statuses: ServerRunStatus[] = ['queued', 'running', 'waiting', 'done', 'failed', 'aborted'];
      for (const [i, status] of statuses.entries()) void store.createRun(run(`old-${status}`, status, old + i));
      void store.createRun(run('recent', 'done', NOW - DAY));
      // Created long ago but ended yesterday: not expired by age.
      void store.createRun(run('late', 'done', old - 10, NOW - DAY));
      for (const id of ['old-done', 'old-running', 'recent']) {
        void store.appendEvent(id, 1, event(id));
        void store.saveCheckpoint({ runId: id, steps: [{ index: 0 } as never], stats: emptyStats() } as never);
      }
      await store.lastSeq('recent');
    }

    it('never deletes a queued, running or waiting run, however old', async () => {
      await seed();
      expect(await store.pruneRuns({ olderThan: NOW - 30 * DAY })).toEqual({ runs: 3 });
      const left = await store.getRuns(['old-queued', 'old-running', 'old-waiting', 'old-done', 'recent', 'late']);
      expect(left.map((r) => r.id).sort()).toEqual(['late', 'old-queued', 'old-running', 'old-waiting', 'recent']);
      // The unfinished run's log and checkpoint stay; the pruned run's are gone.
      expect(await store.readEvents('old-running', 0)).toHaveLength(1);
      expect(await store.loadCheckpoint('old-running')).toBeDefined();
      expect(await store.readEvents('old-done', 0)).toEqual([]);
      expect(await store.loadCheckpoint('old-done')).toBeUndefined();
      expect(await store.pruneRuns({ olderThan: NOW - 30 * DAY })).toEqual({ runs: 0 });
    });

    it('a dry run counts and deletes nothing', async () => {
      await seed();
      expect(await store.pruneRuns({ olderThan: NOW - 30 * DAY, dryRun: true })).toEqual({ runs: 3 });
      expect((await store.stats()).runs).toBe(8);
      expect(await store.readEvents('old-done', 0)).toHaveLength(1);
    });

    it('deletes in batches of the limit, oldest first, and keeps the newest runs by count', async () => {
      await seed();
      expect(await store.pruneRuns({ olderThan: NOW - 30 * DAY, limit: 2 })).toEqual({ runs: 2 });
      expect(await store.getRun('old-done')).toBeUndefined();
      expect(await store.getRun('old-aborted')).toBeDefined();
      // Keep the newest run: every finished run before it goes, unfinished ones stay.
      expect(await store.pruneRuns({ keepNewest: 1, dryRun: true })).toEqual({ runs: 2 });
      expect(await store.pruneRuns({ keepNewest: 1 })).toEqual({ runs: 2 });
      const { runs } = await store.queryRuns({});
      expect(runs.map((r) => r.id)).toEqual(['recent', 'old-waiting', 'old-running', 'old-queued']);
    });

    it('lists summaries newest first, filtered, page by page', async () => {
      await seed();
      const first = await store.queryRuns({ status: ['done'], limit: 2 });
      expect(first.runs.map((r) => r.id)).toEqual(['recent', 'old-done']);
      expect(first.runs[0]).toEqual({
        id: 'recent',
        agent: 'a',
        status: 'done',
        source: 'api',
        createdAt: NOW - DAY,
        updatedAt: NOW - DAY,
        durationMs: 1234,
        steps: 2,
        tokens: 120,
        costUsd: 0.5,
      });
      expect(first.next).toBeDefined();
      const second = await store.queryRuns({ status: ['done'], limit: 2, before: first.next });
      expect(second).toEqual({ runs: [expect.objectContaining({ id: 'late' })] });
      expect((await store.queryRuns({ agent: 'nobody' })).runs).toEqual([]);
      const unfinished = await store.queryRuns({ status: ['queued', 'waiting'] });
      expect(unfinished.runs.map((r) => [r.id, r.steps])).toEqual([
        ['old-waiting', undefined],
        ['old-queued', undefined],
      ]);
    });

    it("drops a run's checkpoint and steps once it ended, in the same commit or a later one", async () => {
      const checkpoint = (runId: string) => ({ runId, steps: [{ index: 0 } as never], stats: emptyStats() }) as never;
      await store.createRun(run('later', 'running', NOW));
      await store.saveCheckpoint(checkpoint('later'));
      expect(await store.loadCheckpoint('later')).toBeDefined();
      await store.updateRun('later', { status: 'done' });
      expect(await store.loadCheckpoint('later')).toBeUndefined();
      void store.createRun(run('same', 'running', NOW));
      void store.saveCheckpoint(checkpoint('same'));
      void store.updateRun('same', { status: 'failed' });
      expect(await store.loadCheckpoint('same')).toBeUndefined();
      // A waiting run keeps it: it resumes from there.
      await store.createRun(run('paused', 'running', NOW));
      await store.saveCheckpoint(checkpoint('paused'));
      await store.updateRun('paused', { status: 'waiting' });
      expect(await store.loadCheckpoint('paused')).toBeDefined();
    });

    it('reports counts by status, the oldest run and its size', async () => {
      await seed();
      const stats = await store.stats();
      expect(stats).toMatchObject({ runs: 8, oldest: NOW - 40 * DAY - 10 });
      expect(stats.byStatus).toEqual({ queued: 1, running: 1, waiting: 1, done: 3, failed: 1, aborted: 1 });
      expect(stats.bytes).toBeGreaterThan(0);
    });
  });
}
