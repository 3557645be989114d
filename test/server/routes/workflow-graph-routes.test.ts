// GET /v1/workflows and GET /v1/workflows/:name on a served config (test/server/fixtures/workflows.config.ts):
// the names Studio lists and the graph it draws, behind the API's auth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, serve } from '../../../src/server/index.js';
import type { GraphNode, WorkflowGraph } from '../../../src/workflow/index.js';
import { tempDir } from '../server-fixtures.js';

const CONFIG = new URL('../fixtures/workflows.config.ts', import.meta.url).pathname;
const dir = tempDir();
let server: RunningServer;

beforeAll(async () => {
  server = await serve({ config: await loadConfig(CONFIG), port: 0, dataDir: dir.path, log: () => {} });
});
afterAll(async () => {
  await server?.close();
  dir.cleanup();
});

async function get(path: string, token?: string) {
  const response = await fetch(`${server.url}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answer fields freely.
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

describe('workflow graph routes', () => {
  it('lists the served workflows by config name, with their ids and definition hashes', async () => {
    const { status, json } = await get('/v1/workflows', 'tok-alice');
    expect(status).toBe(200);
    expect(json.workflows.map((w: { name: string; id: string }) => [w.name, w.id])).toEqual([
      ['tally', 'tally'],
      ['signup', 'signup'],
      ['outer', 'outer'],
      ['slow', 'slow'],
    ]);
    for (const workflow of json.workflows) expect(workflow.definitionHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('answers the graph of one, with the resume schema of its suspending step', async () => {
    const { status, json } = await get('/v1/workflows/tally', 'tok-alice');
    expect(status).toBe(200);
    const graph = json.graph as WorkflowGraph;
    expect(json.name).toBe('tally');
    expect(graph.input).toEqual({ schema: { $schema: expect.any(String), type: 'string' } });
    expect(graph.nodes.map((node) => (node as Extract<GraphNode, { type: 'step' }>).step.path)).toEqual([
      '0.count',
      '1.review',
      '2.report',
    ]);
    expect((graph.nodes[1] as Extract<GraphNode, { type: 'step' }>).step.resume).toMatchObject({
      schema: { type: 'object', properties: { factor: { type: 'number' } }, required: ['factor'] },
    });
    // The path a run's suspended step names is the graph's.
    const run = await fetch(`${server.url}/v1/workflows/tally/runs?wait=true`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-alice', 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'abc' }),
    });
    expect(((await run.json()) as { suspended: { path: string }[] }).suspended[0]!.path).toBe('1.review');
  });

  it('draws nested workflows inline and an event wait with its payload schema', async () => {
    const outer = (await get('/v1/workflows/outer', 'tok-alice')).json.graph as WorkflowGraph;
    const middle = (outer.nodes[0] as Extract<GraphNode, { type: 'step' }>).step;
    const inner = (middle.workflow!.nodes[0] as Extract<GraphNode, { type: 'step' }>).step;
    expect(inner.workflow!.nodes[0]).toMatchObject({
      type: 'step',
      at: '0.middle/0.inner/0',
      step: { id: 'approve', path: '0.middle/0.inner/0.approve', resume: { schema: { type: 'object' } } },
    });
    const signup = (await get('/v1/workflows/signup', 'tok-alice')).json.graph as WorkflowGraph;
    expect(signup.nodes).toEqual([
      {
        type: 'event',
        at: '0',
        path: '0.event',
        event: 'confirmed',
        payload: { schema: expect.objectContaining({ properties: { email: { type: 'string' } } }) },
      },
    ]);
  });

  it('answers 404 for an unknown name and 401 without a token', async () => {
    const unknown = await get('/v1/workflows/nope', 'tok-alice');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe('No workflow named "nope".');
    expect((await get('/v1/workflows')).status).toBe(401);
    expect((await get('/v1/workflows/tally')).status).toBe(401);
    expect((await get('/v1/workflows/tally', 'tok-wrong')).status).toBe(401);
  });
});
