import { describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { queuedRun, type StartRequest } from '../../../src/server/records/index.js';
import { storeRuns } from '../../../src/server/runs/store-runs.js';
import { memoryRunStore } from '../../../src/server/stores/memory-run-store.js';
import { sharesThreadWorkspace, withRunWorkspace } from '../../../src/server/workspaces/index.js';

describe('starts on a thread whose runs share a workspace', () => {
  it('take turns in one process: of two that arrive together, one starts and the other gets thread_busy', async () => {
    const store = memoryRunStore();
    // A start that yields before it stores its run, as a real service's (its lane, its write batch) does.
    const startNew = async (request: StartRequest, id: string) => {
      await new Promise((resolve) => setImmediate(resolve));
      const run = queuedRun(request, id);
      await store.createRun(run);
      return { ok: true as const, run };
    };
    const runs = storeRuns({ store, startNew, oneRunPerThread: (agent) => agent === 'coder' });
    const both = await Promise.all([1, 2].map(() => runs.start({ agent: 'coder', input: 'ls', thread: 't' })));
    expect(both.map((r) => r.ok).sort()).toEqual([false, true]);
    const refused = both.find((r) => !r.ok);
    const started = both.find((r) => r.ok);
    expect(refused).toMatchObject({ reason: 'thread_busy', runId: started?.ok ? started.run.id : '' });
    // Another thread, no thread, and an agent whose runs do not share a workspace are not held back.
    expect((await runs.start({ agent: 'coder', input: 'ls', thread: 'u' })).ok).toBe(true);
    expect((await runs.start({ agent: 'coder', input: 'ls' })).ok).toBe(true);
    const free = await Promise.all([1, 2].map(() => runs.start({ agent: 'other', input: 'ls', thread: 't' })));
    expect(free.every((r) => r.ok)).toBe(true);
  });
});

describe('a run that opens a thread workspace while an earlier turn is unfinished', () => {
  it('fails with the reason (a start that raced the check on another process)', async () => {
    const store = memoryRunStore();
    const entry = withRunWorkspace(
      { kind: 'memory', scope: 'thread' },
      (workspace) => new Agent({ model: scriptedModel(['ok']), workspace }),
    );
    expect(sharesThreadWorkspace(entry)).toBe(true);
    expect(
      sharesThreadWorkspace(
        withRunWorkspace({ kind: 'memory' }, (workspace) => new Agent({ model: scriptedModel(['ok']), workspace })),
      ),
    ).toBe(false);
    const earlier = { ...queuedRun({ agent: 'coder', input: 'a', thread: 't' }), createdAt: 1 };
    const later = { ...queuedRun({ agent: 'coder', input: 'b', thread: 't' }), createdAt: 2 };
    await store.createRun(earlier);
    await store.createRun(later);
    if (typeof entry !== 'function') throw new Error('withRunWorkspace makes a factory');
    await expect(entry({ run: later, store })).rejects.toThrow(
      `Thread "t" of agent "coder" is still being answered by run "${earlier.id}"`,
    );
    // The earlier turn itself opens; once it ended, so does the later one.
    await expect(entry({ run: earlier, store })).resolves.toBeDefined();
    await store.updateRun(earlier.id, { status: 'done' });
    await expect(entry({ run: later, store })).resolves.toBeDefined();
  });
});
