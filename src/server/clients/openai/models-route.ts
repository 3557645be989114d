import type { Hono } from 'hono';
import { apiError } from '../../http/index.js';
import type { RunService } from '../../records/index.js';

/** An agent as an OpenAI model object. */
function modelObject(name: string) {
  return { id: name, object: 'model' as const, created: 0, owned_by: 'thinkflow' };
}

/**
 * GET /v1/models lists the agents in the OpenAI list shape (`client.models.list()`), and
 * GET /v1/models/:model answers one (`client.models.retrieve()`), so a client picks an agent as it picks a model.
 */
export function modelsRoute(app: Hono, runs: RunService): void {
  app.get('/v1/models', (c) => c.json({ object: 'list', data: runs.agentNames().map(modelObject) }));
  app.get('/v1/models/:model', (c) => {
    const name = c.req.param('model');
    if (!runs.agentNames().includes(name)) {
      return apiError(c, 'not_found', `No agent named "${name}"; GET /v1/models lists them.`);
    }
    return c.json(modelObject(name));
  });
}
