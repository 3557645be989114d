import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/index.js';
import { emptyStats } from '../../../src/core/index.js';
import type { RunRecord, RunStore } from '../../../src/server/index.js';

function record(id: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    agent: 'a',
    input: `input ${id}`,
    status: 'queued',
    source: 'api',
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

function stepStart(runId: string, step: number): AgentEvent {
  return { type: 'step_start', runId, ts: 1, step };
}

/** The behaviour every RunStore must have; each implementation runs it. */
export function runStoreContract(
  name: string,
  create: () => Promise<{ store: RunStore; cleanup: () => Promise<void> }>,
) {
  describe(`${name} (RunStore contract)`, () => {
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await create());
    });
    afterEach(async () => {
      await cleanup();
    });

    it('creates, reads and patches runs; reads see writes not yet committed', async () => {
      void store.createRun(record('r1', { history: [{ role: 'user', content: 'earlier' }] }));
      void store.updateRun('r1', { status: 'running' });
      void store.updateRun('r1', { questions: [{ id: 'q1', kind: 'approval', tool: 't', input: { x: 1 } }] });
      const run = await store.getRun('r1');
      expect(run).toMatchObject({ id: 'r1', status: 'running', history: [{ role: 'user', content: 'earlier' }] });
      expect(run?.questions?.[0]).toMatchObject({ id: 'q1', input: { x: 1 } });
      await store.updateRun('r1', { status: 'done', questions: undefined, cancelRequested: true, updatedAt: 5 });
      const ended = await store.getRun('r1');
      expect(ended).toMatchObject({ status: 'done', cancelRequested: true, updatedAt: 5 });
      expect(ended?.questions).toBeUndefined();
      expect(await store.getRun('missing')).toBeUndefined();
      void store.createRun(record('r2'));
      const both = await store.getRuns(['r1', 'missing', 'r2']);
      expect(both.map((r) => r.id).sort()).toEqual(['r1', 'r2']);
      expect(await store.getRuns([])).toEqual([]);
    });

    it("keeps a fork's source and edited messages with its run, and its first checkpoint's", async () => {
      const edited = { messages: [{ role: 'user' as const, content: 'edited' }], steps: 1 };
      const forkedFrom = { runId: 'src', fromStep: 1, edited };
      const steps = [{ index: 0, kind: 'tool_calls' as const, raw: '', toolCalls: [] }];
      const usage = { promptTokens: 1, completionTokens: 1, llmCalls: 1 };
      void store.createRun(record('f1', { forkedFrom }));
      void store.saveCheckpoint({ runId: 'f1', input: 'x', steps, usage, stats: emptyStats(), forkedFrom, edited });
      expect((await store.getRun('f1'))?.forkedFrom).toEqual(forkedFrom);
      expect(await store.loadCheckpoint('f1')).toMatchObject({ steps, forkedFrom, edited });
      void store.createRun(record('f2'));
      expect((await store.getRun('f2'))?.forkedFrom).toBeUndefined();
    });

    it("keeps a run's conversation thread, and lists a thread's runs newest first", async () => {
      void store.createRun(record('t1', { thread: 'chat-1', createdAt: 10 }));
      void store.createRun(record('t2', { thread: 'chat-2', createdAt: 11 }));
      void store.createRun(record('t3', { thread: 'chat-1', createdAt: 12, status: 'done' }));
      void store.createRun(record('t4', { createdAt: 13 }));
      expect((await store.getRun('t1'))?.thread).toBe('chat-1');
      expect((await store.getRun('t4'))?.thread).toBeUndefined();
      const page = await store.queryRuns({ thread: 'chat-1' });
      expect(page.runs.map((r) => r.id)).toEqual(['t3', 't1']);
      const before = await store.queryRuns({ thread: 'chat-1', before: `12.t3`, limit: 1 });
      expect(before.runs.map((r) => r.id)).toEqual(['t1']);
      const unfinished = await store.queryRuns({ thread: 'chat-1', status: ['queued', 'running', 'waiting'] });
      expect(unfinished.runs.map((r) => r.id)).toEqual(['t1']);
    });

    it('patches several runs in one tick, each changing only the fields it names', async () => {
      await Promise.all([
        store.createRun(record('p1', { status: 'running', updatedAt: 2 })),
        store.createRun(
          record('p2', { status: 'waiting', questions: [{ id: 'q', kind: 'approval', tool: 't', input: {} }] }),
        ),
      ]);
      void store.updateRun('p1', { cancelRequested: true });
      void store.appendEvent('p1', 1, stepStart('p1', 1));
      await store.updateRun('p2', { status: 'running', questions: undefined, updatedAt: 9 });
      expect(await store.getRun('p1')).toMatchObject({ status: 'running', updatedAt: 2, cancelRequested: true });
      const p2 = await store.getRun('p2');
      expect(p2).toMatchObject({ status: 'running', updatedAt: 9 });
      expect(p2?.questions).toBeUndefined();
      expect(p2?.cancelRequested).toBeUndefined();
      expect(await store.lastSeq('p1')).toBe(1);
    });

    it('lists runs by status in creation order', async () => {
      await Promise.all([
        store.createRun(record('b', { createdAt: 2, status: 'running' })),
        store.createRun(record('a', { createdAt: 1, status: 'waiting' })),
        store.createRun(record('c', { createdAt: 3, status: 'done' })),
      ]);
      const open = await store.listRuns({ status: ['queued', 'running', 'waiting'] });
      expect(open.map((r) => r.id)).toEqual(['a', 'b']);
    });

    it('appends events and reads them in order after a sequence number', async () => {
      await store.createRun(record('r'));
      for (let seq = 1; seq <= 5; seq++) void store.appendEvent('r', seq, stepStart('r', seq));
      expect(await store.lastSeq('r')).toBe(5);
      expect(await store.lastSeq('other')).toBe(0);
      const after = await store.readEvents('r', 2);
      expect(after.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(after[0].event).toEqual(stepStart('r', 3));
    });

    it('keeps the latest checkpoint of a run', async () => {
      const base = {
        runId: 'r',
        steps: [],
        usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
        stats: emptyStats(),
      };
      void store.saveCheckpoint({ ...base, input: 'first' });
      await store.saveCheckpoint({ ...base, input: 'second' });
      expect((await store.loadCheckpoint('r'))?.input).toBe('second');
      expect(await store.loadCheckpoint('none')).toBeUndefined();
    });

    it('keeps every step of a checkpoint saved step by step, and of one saved at once', async () => {
      const base = { input: 'go', usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 }, stats: emptyStats() };
      const steps = [0, 1, 2].map((index) => ({
        index,
        kind: 'tool_calls' as const,
        raw: `reply ${index} "quoted" \\ \u0000`,
        toolCalls: [],
        observation: `seen ${index}`,
      }));
      for (let n = 0; n <= 3; n++) void store.saveCheckpoint({ ...base, runId: 'slow', steps: steps.slice(0, n) });
      await store.saveCheckpoint({ ...base, runId: 'fast', steps });
      expect((await store.loadCheckpoint('slow'))?.steps).toEqual(steps);
      expect((await store.loadCheckpoint('fast'))?.steps).toEqual(steps);
      await store.saveCheckpoint({ ...base, runId: 'fast', steps: steps.slice(0, 1), pending: undefined });
      expect((await store.loadCheckpoint('fast'))?.steps).toEqual(steps.slice(0, 1));
    });
  });
}
