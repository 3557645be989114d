import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { contains, fetchDataset, runExperiment } from '../../../src/eval/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { tempDir } from '../server-fixtures.js';

let server: RunningServer;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  dir = tempDir();
  server = await serve({
    port: 0,
    dataDir: dir.path,
    log: () => {},
    config: {
      auth: {
        tokens: [
          { token: 'alice-token', principal: 'alice' },
          { token: 'bob-token', principal: 'bob' },
        ],
      },
      agents: { helper: () => new Agent({ model: scriptedModel(['Paris.']) }) },
    },
  });
});

afterAll(async () => {
  await server.close();
  dir.cleanup();
});

function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  return fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${init.token ?? 'alice-token'}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

async function finishedRun(input: string): Promise<string> {
  const response = await call('/v1/agents/helper/runs?wait=true', { body: { input } });
  return ((await response.json()) as { id: string }).id;
}

describe('datasets in the service', () => {
  it('creates a dataset, versions each change, keeps row ids, and reads an old version', async () => {
    const created = await call('/v1/datasets', {
      body: { name: 'capitals', rows: [{ input: 'France?', expected: 'Paris' }, { input: 'Spain?' }] },
    });
    expect(created.status).toBe(201);
    const dataset = (await created.json()) as { id: string; version: number; added: string[] };
    expect(created.headers.get('location')).toBe(`/v1/datasets/${dataset.id}`);
    expect(dataset.version).toBe(1);
    const [france, spain] = dataset.added;

    const edited = await call(`/v1/datasets/${dataset.id}/rows`, {
      body: { update: [{ id: spain, input: 'Spain?', expected: 'Madrid' }], add: [{ input: 'Italy?' }] },
    });
    expect(await edited.json()).toMatchObject({ version: 2, rows: 3 });
    const removed = await call(`/v1/datasets/${dataset.id}/rows`, { body: { remove: [france] } });
    expect(await removed.json()).toMatchObject({ version: 3, rows: 2 });

    const latest = (await (await call(`/v1/datasets/${dataset.id}`)).json()) as {
      items: { id: string; expected?: unknown }[];
    };
    expect(latest.items.map((r) => r.id)).toEqual([spain, expect.any(String)]);
    expect(latest.items[0].expected).toBe('Madrid');
    const first = (await (await call(`/v1/datasets/${dataset.id}?version=1`)).json()) as {
      rowsVersion: number;
      items: { id: string; expected?: unknown }[];
    };
    expect(first.rowsVersion).toBe(1);
    expect(first.items.map((r) => [r.id, r.expected])).toEqual([
      [france, 'Paris'],
      [spain, undefined],
    ]);
    expect((await call(`/v1/datasets/${dataset.id}?version=9`)).status).toBe(404);
    const list = (await (await call('/v1/datasets')).json()) as { data: { id: string }[] };
    expect(list.data.map((d) => d.id)).toContain(dataset.id);
  });

  it('turns a stored run into a row (input, its answer as expected, its run id), both ways', async () => {
    const runId = await finishedRun('Capital of France?');
    const added = await call(`/v1/runs/${runId}/add-to-dataset`, { body: { name: 'from production' } });
    expect(added.status).toBe(201);
    const dataset = (await added.json()) as { id: string };
    const again = await call(`/v1/datasets/${dataset.id}/rows`, { body: { fromRun: runId } });
    expect(await again.json()).toMatchObject({ version: 2, rows: 2 });
    const read = (await (await call(`/v1/datasets/${dataset.id}`)).json()) as { items: unknown[] };
    expect(read.items).toEqual([
      expect.objectContaining({
        input: 'Capital of France?',
        expected: 'Paris.',
        metadata: { runId, agent: 'helper' },
      }),
      expect.objectContaining({ input: 'Capital of France?', metadata: { runId, agent: 'helper' } }),
    ]);
    const byId = await call(`/v1/runs/${runId}/add-to-dataset`, { body: { datasetId: dataset.id } });
    expect(await byId.json()).toMatchObject({ version: 3, rows: 3 });
  });

  it('exports JSONL that fetchDataset reads, so an experiment in CI runs the collected cases', async () => {
    const runId = await finishedRun('Capital of France?');
    const made = (await (await call(`/v1/runs/${runId}/add-to-dataset`, { body: { name: 'ci' } })).json()) as {
      id: string;
      added: string[];
    };
    const jsonl = await call(`/v1/datasets/${made.id}?format=jsonl`);
    expect(jsonl.headers.get('content-type')).toContain('application/x-ndjson');
    const data = await fetchDataset(`${server.url}/v1/datasets/${made.id}`, { token: 'alice-token' });
    expect(data).toEqual([
      { id: made.added[0], input: 'Capital of France?', expected: 'Paris.', metadata: { runId, agent: 'helper' } },
    ]);
    const experiment = await runExperiment({
      name: 'ci',
      data,
      task: new Agent({ model: scriptedModel(['Paris.']) }),
      scorers: [contains()],
    });
    expect(experiment.summary.passed).toBe(1);
    await expect(fetchDataset(`${server.url}/v1/datasets/${made.id}`, { token: 'bob-token' })).rejects.toThrow(
      /refused the dataset .*HTTP 404: No dataset with id/,
    );
  });

  it("keeps each caller's datasets their own", async () => {
    const mine = (await (await call('/v1/datasets', { body: { name: 'private' } })).json()) as { id: string };
    expect((await call(`/v1/datasets/${mine.id}`, { token: 'bob-token' })).status).toBe(404);
    const change = await call(`/v1/datasets/${mine.id}/rows`, { body: { add: [{ input: 'x' }] }, token: 'bob-token' });
    expect(change.status).toBe(404);
    const bobs = (await (await call('/v1/datasets', { token: 'bob-token' })).json()) as { data: { id: string }[] };
    expect(bobs.data.map((d) => d.id)).not.toContain(mine.id);
    // Nor can bob add alice's run to a dataset of his.
    const runId = await finishedRun('hi');
    const theirs = await call(`/v1/runs/${runId}/add-to-dataset`, { body: { name: 'stolen' }, token: 'bob-token' });
    expect(theirs.status).toBe(404);
  });

  it('answers bad bodies and queries with the API error JSON naming the field', async () => {
    const noName = await call('/v1/datasets', { body: { rows: [] } });
    expect(noName.status).toBe(400);
    expect(await noName.json()).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringContaining('name') },
    });
    const made = (await (await call('/v1/datasets', { body: { name: 'x' } })).json()) as { id: string };
    const empty = await call(`/v1/datasets/${made.id}/rows`, { body: {} });
    expect(empty.status).toBe(400);
    const noInput = await call(`/v1/datasets/${made.id}/rows`, { body: { add: [{ expected: 'y' }] } });
    expect(noInput.status).toBe(400);
    expect(await noInput.json()).toMatchObject({ error: { message: expect.stringContaining('input') } });
    const unknownRow = await call(`/v1/datasets/${made.id}/rows`, { body: { remove: ['nope'] } });
    expect(unknownRow.status).toBe(404);
    const badVersion = await call(`/v1/datasets/${made.id}?version=zero`);
    expect(badVersion.status).toBe(400);
    expect((await call('/v1/runs/nope/add-to-dataset', { body: { name: 'x' } })).status).toBe(404);
    // A body that fits none of the accepted shapes says what each one missed (zod's own text: "Invalid input").
    const wrongKey = await call('/v1/runs/nope/add-to-dataset', { body: { dataset: made.id } });
    expect(wrongKey.status).toBe(400);
    expect(((await wrongKey.json()) as { error: { message: string } }).error.message).toBe(
      'Invalid request body: ✖ fits none of the 2 accepted shapes: (1) Invalid input: expected string, received undefined at datasetId, Unrecognized key: "dataset"; (2) Invalid input: expected string, received undefined at name, Unrecognized key: "dataset"',
    );
  });
});
