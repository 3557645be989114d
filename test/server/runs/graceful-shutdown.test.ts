import { describe, expect, it } from 'vitest';
import { type RunRecord, serve } from '../../../src/server/index.js';
import { postJson, stepsAgent, tempDir } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

describe('graceful shutdown', () => {
  it('stops accepting, leaves an unfinished run checkpointed, and the next server finishes it', async () => {
    const dir = tempDir();
    const counter = { calls: 0 };
    const config = { agents: { steps: stepsAgent({ counter, delayMs: 300 }) } };
    const first = await serve({ config, port: 0, dataDir: dir.path, shutdownTimeoutMs: 50, log: () => {} });
    try {
      const created = await fetch(`${first.url}/v1/agents/steps/runs`, postJson({ input: 'go' }));
      const { id } = (await created.json()) as RunRecord;
      await eventually(() => (counter.calls >= 1 ? true : undefined), 10_000);
      await first.close();
      await expect(fetch(`${first.url}/health`)).rejects.toThrow();

      const second = await serve({ config, port: 0, dataDir: dir.path, log: () => {} });
      try {
        const run = await second.runs.wait(id, AbortSignal.timeout(20_000));
        expect(run?.status).toBe('done');
        expect(run?.result?.steps).toHaveLength(5);
        expect(counter.calls).toBe(4);
        const events = await second.store.readEvents(id, 0);
        expect(events.filter((e) => e.event.type === 'run_end')).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      dir.cleanup();
    }
  }, 60_000);
});
