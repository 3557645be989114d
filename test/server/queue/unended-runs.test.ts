import { describe, expect, it, vi } from 'vitest';
import {
  createApp,
  createQueueRuns,
  createRunWorker,
  PostgresRunStore,
  type RunRecord,
} from '../../../src/server/index.js';
import { createUnendedRuns, type UnendedRuns } from '../../../src/server/queue/unended-runs.js';
import { TEST_PG, TEST_REDIS, uniqueName } from '../pg-fixtures.js';
import { postJson, stepsAgent } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

/** The sets the queue run service makes, to look at what it keeps. */
const made = vi.hoisted(() => [] as UnendedRuns[]);
vi.mock('../../../src/server/queue/unended-runs.js', async (original) => {
  const module = await original<typeof import('../../../src/server/queue/unended-runs.js')>();
  return {
    ...module,
    createUnendedRuns: (max?: number) => {
      const set = module.createUnendedRuns(max);
      made.push(set);
      return set;
    },
  };
});

describe('runs started in queue mode and not yet ended', () => {
  it('are bounded: past the limit the oldest go first', () => {
    const set = createUnendedRuns(3);
    for (const id of ['a', 'b', 'c', 'd']) set.add(id);
    expect(set.size).toBe(3);
    expect(set.delete('a')).toBe(false);
    expect(set.delete('d')).toBe(true);
  });

  it('are forgotten once they end, whether waited on or not', { timeout: 60_000 }, async () => {
    const schema = uniqueName('tf_queue');
    const location = { redisUrl: TEST_REDIS, queueName: uniqueName('runs'), prefix: uniqueName('tf') };
    const apiStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
    await apiStore.init();
    const workerStore = new PostgresRunStore({ connectionString: TEST_PG, schema });
    const runs = createQueueRuns({ ...location, agents: ['steps'], store: apiStore, pollMs: 50 });
    const unended = made.at(-1) as UnendedRuns;
    // Fast runs: many end before the API server's queue.add has returned.
    const worker = createRunWorker({
      ...location,
      agents: { steps: stepsAgent({ toolSteps: 1 }) },
      store: workerStore,
    });
    const app = createApp({ runs });
    try {
      const start = async (wait: boolean) => {
        const response = await app.fetch(
          new Request(`http://localhost/v1/agents/steps/runs${wait ? '?wait=true' : ''}`, postJson({ input: 'go' })),
        );
        return ((await response.json()) as RunRecord).id;
      };
      const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => start(i % 2 === 0)));
      await eventually(async () => {
        const stored = await apiStore.getRuns(ids);
        return stored.length === ids.length && stored.every((run) => run.status === 'done') ? true : undefined;
      }, 30_000);
      await eventually(() => (unended.size === 0 ? true : undefined), 10_000);
      expect(unended.size).toBe(0);
    } finally {
      await worker.close();
      await runs.close();
      await apiStore.drop();
      await Promise.all([apiStore.close(), workerStore.close()]);
    }
  });
});
