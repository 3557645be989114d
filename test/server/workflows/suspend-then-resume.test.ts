// A run answered as suspended can be resumed at once: the answer waits until the run is no longer in
// flight, even when its last events take a while to be written (a busy store).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, memoryRunStore, workflowRuns } from '../../../src/server/index.js';
import { createStep, createWorkflow, memoryWorkflowStore, type WorkflowStore } from '../../../src/workflow/index.js';
import { postJson } from '../server-fixtures.js';

const review = createStep({
  id: 'review',
  input: z.number(),
  output: z.number(),
  resumeSchema: z.object({ factor: z.number() }),
  run: (n, ctx) => (ctx.resumeData ? n * ctx.resumeData.factor : ctx.suspend({ n })),
});
const tally = createWorkflow({ id: 'tally', input: z.number(), output: z.number() }).then(review).commit();

/** The memory store, with every event write 150 ms slow. */
function slowEventStore(): WorkflowStore {
  const store = memoryWorkflowStore();
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key !== 'appendEvents' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return value.apply(target, args);
      };
    },
  });
}

describe('a workflow run answered as suspended', () => {
  it('is resumed by the very next request, however slow its last events are to write', async () => {
    const runs = memoryRunStore();
    const app = createApp({
      agents: {},
      store: runs,
      workflows: workflowRuns({ workflows: { tally }, store: slowEventStore(), claims: runs }),
    });
    try {
      const call = async (path: string, body: unknown) => {
        const response = await app.fetch(new Request(`http://localhost${path}`, postJson(body)));
        return { status: response.status, json: (await response.json()) as Record<string, unknown> };
      };
      const started = await call('/v1/workflows/tally/runs?wait=true', { input: 4 });
      expect(started.json.status).toBe('suspended');
      const resumed = await call(`/v1/runs/${started.json.id}/resume?wait=true`, {
        step: 'review',
        payload: { factor: 3 },
      });
      expect(resumed).toMatchObject({ status: 200, json: { status: 'done', output: 12 } });
    } finally {
      await app.runs.close({ timeoutMs: 2000 });
    }
  });
});
