import type { Hono } from 'hono';
import { apiError } from '../http/index.js';
import type { EvalStore, RunService } from '../records/index.js';

/**
 * GET /v1/runs/:id/scores: what online scoring (`scoring` in the config) found of an agent run the caller
 * may see, `{ runId, scores: RunScore[] }`, empty until a sampled run has been scored (or if it was not sampled).
 */
export function runScoresRoute(app: Hono, runs: RunService, evals: Pick<EvalStore, 'readScores'>): void {
  app.get('/v1/runs/:id/scores', async (c) => {
    const id = c.req.param('id');
    const run = await runs.get(id);
    if (!run) return apiError(c, 'not_found', `No agent run with id "${id}".`);
    return c.json({ runId: id, scores: await evals.readScores(id) });
  });
}
