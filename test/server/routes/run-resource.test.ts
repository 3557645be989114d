// `/v1/runs/:id` and its sub-routes are one resource for agent and workflow runs: registered once, each
// request decides the kind once, and a sub-route a kind does not have answers 404 naming the kind.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, SqliteRunStore, workflowRuns } from '../../../src/server/index.js';
import { createStep, createWorkflow } from '../../../src/workflow/index.js';
import { sqliteWorkflowStore } from '../../../src/workflow/node.js';
import { postJson, stepsAgent, tempDir } from '../server-fixtures.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function open() {
  const dir = tempDir();
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  const double = createWorkflow({ id: 'double', input: z.number(), output: z.number() })
    .then(createStep({ id: 'twice', input: z.number(), output: z.number(), run: (n) => n * 2 }))
    .commit();
  const workflows = workflowRuns({
    workflows: { double },
    store: sqliteWorkflowStore({ dataDir: dir.path }),
    claims: store,
    ownStore: true,
  });
  const app = createApp({ agents: { steps: stepsAgent({ toolSteps: 0 }) }, store, workflows });
  cleanups.push(async () => {
    await app.runs.close({ timeoutMs: 50 });
    await workflows.close();
    await store.close();
    dir.cleanup();
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const init = body === undefined ? { method } : { ...postJson(body), method };
    const response = await app.fetch(new Request(`http://localhost${path}`, init));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { app, call };
}

describe('the run resource', () => {
  it('registers each /v1/runs/:id route once, for both kinds of run', () => {
    const { app } = open();
    const paths = app.hono.routes
      .filter((r) => r.path.startsWith('/v1/runs/:id') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`);
    expect(paths.length).toBeGreaterThanOrEqual(7);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('answers an agent run and a workflow run at the same paths, each as its kind', async () => {
    const { call } = open();
    const agent = await call('POST', '/v1/agents/steps/runs?wait=true', { input: 'go' });
    const flow = await call('POST', '/v1/workflows/double/runs?wait=true', { input: 4 });
    expect((await call('GET', `/v1/runs/${agent.body.id}`)).body.kind).toBe('agent');
    expect((await call('GET', `/v1/runs/${flow.body.id}`)).body).toMatchObject({ kind: 'workflow', output: 8 });
    // An ended workflow run refuses a cancel in the workflow routes' own words (not the agent's 404).
    const cancelFlow = await call('POST', `/v1/runs/${flow.body.id}/cancel`);
    expect(JSON.stringify(cancelFlow.body)).not.toContain('No run with id');
    expect((await call('POST', `/v1/runs/${agent.body.id}/cancel`)).body.kind).toBe('agent');
  });

  it('answers a sub-route the kind has not with 404 naming the kind, and an unknown id with 404', async () => {
    const { call } = open();
    const agent = await call('POST', '/v1/agents/steps/runs?wait=true', { input: 'go' });
    const flow = await call('POST', '/v1/workflows/double/runs?wait=true', { input: 4 });
    const approvals = await call('POST', `/v1/runs/${flow.body.id}/approvals`, { approved: true });
    expect(approvals.status).toBe(404);
    expect(JSON.stringify(approvals.body)).toContain('is a workflow run, which has no /approvals');
    const resume = await call('POST', `/v1/runs/${agent.body.id}/resume`, {});
    expect(resume.status).toBe(404);
    expect(JSON.stringify(resume.body)).toContain('is an agent run, which has no /resume');
    expect((await call('GET', '/v1/runs/nope/trace')).status).toBe(404);
    expect((await call('GET', '/v1/runs/nope')).body).toMatchObject({ error: { code: 'not_found' } });
  });
});
