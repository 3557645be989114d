import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { embeddedApp, postJson, stepsAgent } from '../server-fixtures.js';

describe('concurrent load', () => {
  it('completes 500 concurrent five-step runs: none lost, none run twice', async () => {
    const counter = { calls: 0 };
    const server = embeddedApp({
      agents: { steps: stepsAgent({ counter }) },
      limits: { maxConcurrentRuns: 64, maxQueuedRuns: 1000 },
    });
    try {
      const responses = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          server.request('/v1/agents/steps/runs?wait=true', postJson({ input: `run ${i}` })),
        ),
      );
      const runs = (await Promise.all(responses.map((r) => r.json()))) as RunRecord[];
      expect(responses.every((r) => r.status === 200)).toBe(true);
      expect(new Set(runs.map((r) => r.id)).size).toBe(500);
      expect(runs.filter((r) => r.status === 'done')).toHaveLength(500);
      expect(new Set(runs.map((r) => r.input)).size).toBe(500);
      expect(counter.calls).toBe(500 * 4);

      const stored = await server.store.listRuns({ status: ['done'] });
      expect(stored).toHaveLength(500);
      expect(await server.store.listRuns({ status: ['queued', 'running', 'waiting'] })).toHaveLength(0);
      for (const run of runs.slice(0, 50)) {
        const events = await server.store.readEvents(run.id, 0);
        expect(events.filter((e) => e.event.type === 'run_start')).toHaveLength(1);
        expect(events.filter((e) => e.event.type === 'run_end')).toHaveLength(1);
        expect(events.filter((e) => e.event.type === 'tool_end')).toHaveLength(4);
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
