import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { mayAccess } from '../caller/index.js';
import { apiError, currentScope, readBody, readQuery } from '../http/index.js';
import {
  type ChangeResult,
  DatasetChange,
  type DatasetInfo,
  type DatasetRowData,
  type EvalStore,
  isFinished,
  DatasetRowData as RowSchema,
  type RunRecord,
  type RunService,
} from '../records/index.js';

/** Body of POST /v1/datasets. */
export const CreateDatasetBody = z.strictObject({
  name: z.string().trim().min(1, 'name must be a non-empty string').max(200),
  description: z.string().max(2000).optional(),
  rows: z.array(RowSchema).max(10_000).optional(),
});

/** Body of POST /v1/datasets/:id/rows: one change (rows added, edited, removed), or a stored run to add. */
export const DatasetRowsBody = z.union([
  z.strictObject({ fromRun: z.string().min(1) }),
  DatasetChange.refine(
    (change) => (change.add?.length ?? 0) + (change.update?.length ?? 0) + (change.remove?.length ?? 0) > 0,
    'a change adds, updates or removes at least one row (or names a run with fromRun)',
  ),
]);

/** Body of POST /v1/runs/:id/add-to-dataset: the dataset to add to, or the name of a new one. */
export const AddToDatasetBody = z.union([
  z.strictObject({ datasetId: z.string().min(1) }),
  z.strictObject({ name: z.string().trim().min(1).max(200), description: z.string().max(2000).optional() }),
]);

const DatasetQuery = z.strictObject({
  version: z.coerce.number().int().min(1).optional(),
  /** `jsonl`: the rows as `loadDataset`/`thinkflow eval run --data` read them, one a line. */
  format: z.enum(['json', 'jsonl']).optional(),
});

const ListQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional() });

/** What turns a stored run into a row: its input, its answer as what is expected, and where it came from. */
export function rowFromRun(run: RunRecord): DatasetRowData {
  return { input: run.input, expected: run.result?.output ?? '', metadata: { runId: run.id, agent: run.agent } };
}

function caller() {
  const scope = currentScope();
  if (!scope) throw new Error('Dataset routes must be mounted after resolveCaller().');
  return scope.caller;
}

/** The dataset if the caller may see it (their own, or any for an admin). */
async function visible(evals: EvalStore, id: string): Promise<DatasetInfo | undefined> {
  const dataset = await evals.getDataset(id);
  return dataset && mayAccess(caller(), dataset.owner) ? dataset : undefined;
}

function noSuchDataset(c: Context, id: string): Response {
  return apiError(c, 'not_found', `No dataset with id "${id}".`);
}

/** A finished agent run the caller may see, or the response saying why not. */
async function finishedRun(c: Context, runs: RunService, id: string): Promise<RunRecord | Response> {
  const run = await runs.get(id);
  if (!run) return apiError(c, 'not_found', `No agent run with id "${id}".`);
  if (!isFinished(run.status)) return apiError(c, 'conflict', `Run "${id}" is ${run.status}; add it once it ended.`);
  return run;
}

function changed(c: Context, id: string, result: ChangeResult): Response {
  if (result.ok) return c.json({ ...result.dataset, added: result.added });
  if (result.reason === 'unknown_dataset') return noSuchDataset(c, id);
  return apiError(c, 'not_found', `Dataset "${id}" has no row "${result.rowId}" in its latest version.`);
}

/**
 * Datasets in the service, versioned: `POST /v1/datasets`, `GET /v1/datasets`, `GET /v1/datasets/:id`
 * (`?version=N`, `?format=jsonl`), `POST /v1/datasets/:id/rows` (a change, or `{ fromRun }`) and
 * `POST /v1/runs/:id/add-to-dataset`. Each change of rows makes a new version; a row keeps its id.
 * A caller sees their own datasets (an admin sees all).
 */
export function datasetRoutes(app: Hono, runs: RunService, evals: EvalStore): void {
  app.post('/v1/datasets', async (c) => {
    const body = await readBody(c, CreateDatasetBody);
    if (!body.ok) return body.response;
    const { name, description, rows = [] } = body.value;
    const dataset = await evals.createDataset({ name, description, rows, owner: caller().principal });
    return c.json(dataset, 201, { Location: `/v1/datasets/${dataset.id}` });
  });
  app.get('/v1/datasets', async (c) => {
    const query = readQuery(c, ListQuery);
    if (!query.ok) return query.response;
    const { admin, principal } = caller();
    const owner = admin ? undefined : (principal ?? '');
    return c.json({ data: await evals.listDatasets({ owner, limit: query.value.limit }) });
  });
  app.get('/v1/datasets/:id', async (c) => {
    const query = readQuery(c, DatasetQuery);
    if (!query.ok) return query.response;
    const id = c.req.param('id');
    const { version, format } = query.value;
    if (!(await visible(evals, id))) return noSuchDataset(c, id);
    const found = await evals.readDataset(id, version);
    if (!found) return apiError(c, 'not_found', `Dataset "${id}" has no version ${version}.`);
    if (format !== 'jsonl') return c.json(found);
    const lines = found.items.map(({ version: _v, ...row }) => `${JSON.stringify(row)}\n`).join('');
    return c.body(lines, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
  });
  app.post('/v1/datasets/:id/rows', async (c) => {
    const body = await readBody(c, DatasetRowsBody);
    if (!body.ok) return body.response;
    const id = c.req.param('id');
    if (!(await visible(evals, id))) return noSuchDataset(c, id);
    let change: DatasetChange = body.value as DatasetChange;
    if ('fromRun' in body.value) {
      const run = await finishedRun(c, runs, body.value.fromRun);
      if (run instanceof Response) return run;
      change = { add: [rowFromRun(run)] };
    }
    return changed(c, id, await evals.changeDataset(id, change));
  });
  app.post('/v1/runs/:id/add-to-dataset', async (c) => {
    const body = await readBody(c, AddToDatasetBody);
    if (!body.ok) return body.response;
    const run = await finishedRun(c, runs, c.req.param('id'));
    if (run instanceof Response) return run;
    const row = rowFromRun(run);
    if ('name' in body.value) {
      const { name, description } = body.value;
      const dataset = await evals.createDataset({ name, description, rows: [row], owner: caller().principal });
      return c.json(dataset, 201, { Location: `/v1/datasets/${dataset.id}` });
    }
    const { datasetId } = body.value;
    if (!(await visible(evals, datasetId))) return noSuchDataset(c, datasetId);
    return changed(c, datasetId, await evals.changeDataset(datasetId, { add: [row] }));
  });
}
