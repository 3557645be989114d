import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { embeddedApp, postJson, stepsAgent } from '../server-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The `steps` agent as recorded, the same agent told to be brief, and a count of real tool calls. */
function app(options: { tokens?: string[]; maxBodyBytes?: number } = {}) {
  const counter = { calls: 0 };
  const steps = stepsAgent({ toolSteps: 2, counter });
  const served = embeddedApp({
    agents: {
      steps,
      brief: () => new Agent({ ...steps().options, instructions: 'Be brief.' }),
      custom: { run: () => Promise.reject(new Error('not an Agent')) },
    },
    tokens: options.tokens,
    limits: options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : undefined,
  });
  cleanups.push(served.close);
  return { ...served, counter };
}

/** Runs the `steps` agent through the API and downloads its trace. */
async function recordedTrace(request: ReturnType<typeof app>['request'], headers: Record<string, string> = {}) {
  const run = (await (await request('/v1/agents/steps/runs?wait=true', postJson({ input: 'go' }, headers))).json()) as {
    id: string;
  };
  return (await request(`/v1/runs/${run.id}/trace`, { headers })).text();
}

const replay = (request: ReturnType<typeof app>['request'], agent: string, body: string, headers = {}) =>
  request(`/v1/agents/${agent}/replay`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-ndjson', ...headers },
  });

describe('POST /v1/agents/:name/replay', () => {
  it('finds no divergence when the agent is unchanged, without calling tools or storing a run', async () => {
    const { request, counter } = app();
    const trace = await recordedTrace(request);
    const toolCalls = counter.calls;
    const response = await replay(request, 'steps', trace);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      agent: 'steps',
      status: 'done',
      recordedStatus: 'done',
      steps: 3,
      recordedSteps: 3,
      divergence: null,
    });
    expect(counter.calls).toBe(toolCalls);
    const list = (await (await request('/v1/runs')).json()) as { runs: unknown[] };
    expect(list.runs).toHaveLength(1);
  });

  it('shows the first step where the current agent differs from the trace, expected against actual', async () => {
    const { request } = app();
    const trace = await recordedTrace(request);
    const report = (await (await replay(request, 'brief', trace)).json()) as {
      divergence: { step: number; kind: string; message: string; expected: string; actual: string };
    };
    expect(report.divergence).toMatchObject({ step: 0, kind: 'model_request' });
    expect(report.divergence.message).toContain('message 1 (system)');
    expect(report.divergence.actual).not.toBe(report.divergence.expected);
  });

  it('answers 400 JSON for a body that is not a trace, naming the line', async () => {
    const { request } = app();
    const notJson = await replay(request, 'steps', '{"type":"run_start"}\nnot json\n');
    expect(notJson.status).toBe(400);
    const body = (await notJson.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('line 2');
    expect((await replay(request, 'steps', '')).status).toBe(400);
    expect((await replay(request, 'steps', '{"no":"type"}')).status).toBe(400);
    const noStart = await replay(request, 'steps', '{"type":"step_start","runId":"r","step":0}');
    expect(noStart.status).toBe(400);
    expect(((await noStart.json()) as { error: { message: string } }).error.message).toContain('run_start');
  });

  it('answers 400 for a body of several runs (a file --trace appended to), naming them', async () => {
    const { request } = app();
    const first = await recordedTrace(request);
    const second = await recordedTrace(request);
    const both = await replay(request, 'steps', `${first.trimEnd()}\n${second}`);
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: { message: string } }).error.message).toMatch(
      /^The body holds 2 runs \(.+, .+\), as a file --trace appended to does: send one run's trace\.$/,
    );
    expect((await replay(request, 'steps', second)).status).toBe(200);
  });

  it('answers 404 for an unknown agent and 400 for one that is not an Agent', async () => {
    const { request } = app();
    const trace = await recordedTrace(request);
    expect((await replay(request, 'nobody', trace)).status).toBe(404);
    expect((await replay(request, 'custom', trace)).status).toBe(400);
  });

  it('bounds the body and is behind the bearer token', async () => {
    const { request } = app({ tokens: ['t0ken'], maxBodyBytes: 64 * 1024 });
    const auth = { Authorization: 'Bearer t0ken' };
    const trace = await recordedTrace(request, auth);
    expect((await replay(request, 'steps', trace)).status).toBe(401);
    expect((await replay(request, 'steps', trace, auth)).status).toBe(200);
    const big = `${trace}${' '.repeat(64 * 1024)}`;
    expect((await replay(request, 'steps', big, auth)).status).toBe(413);
  });
});
