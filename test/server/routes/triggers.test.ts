import { afterEach, describe, expect, it } from 'vitest';
import { type RunRecord, startSchedules } from '../../../src/server/index.js';
import { embeddedApp, postJson, stepsAgent } from '../server-fixtures.js';
import { eventually } from '../spawn-server.js';

let server: ReturnType<typeof embeddedApp> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('webhooks', () => {
  it('starts the configured agent with the payload and answers 202', async () => {
    server = embeddedApp({
      agents: { steps: stepsAgent() },
      hooks: {
        ticket: { agent: 'steps', input: (payload) => `Triage ticket ${(payload as { id: number }).id}` },
        raw: { agent: 'steps' },
      },
    });
    const response = await server.request('/v1/hooks/ticket', postJson({ id: 42 }));
    expect(response.status).toBe(202);
    const run = (await response.json()) as RunRecord;
    expect(run).toMatchObject({ agent: 'steps', input: 'Triage ticket 42', source: 'hook' });
    expect((await server.app.runs.wait(run.id))?.status).toBe('done');

    const raw = (await (await server.request('/v1/hooks/raw', postJson({ a: 1 }))).json()) as RunRecord;
    expect(raw.input).toBe('{"a":1}');
    expect((await server.request('/v1/hooks/nope', postJson({}))).status).toBe(404);
  });
});

describe('schedules', () => {
  it('starts a run each time the cron matches, and stops when told', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    // A clock one second before a minute boundary, so the first tick comes at once.
    const base = new Date('2026-03-04T10:14:59.000').getTime();
    const realStart = Date.now();
    const now = () => new Date(base + (Date.now() - realStart));
    const stop = startSchedules([{ cron: '* * * * *', agent: 'steps', input: 'hourly report' }], server.app.runs, {
      now,
    });
    try {
      const runs = await eventually(async () => {
        const all = await server!.store.listRuns({ status: ['queued', 'running', 'done'] });
        return all.length > 0 ? all : undefined;
      }, 5000);
      expect(runs[0]).toMatchObject({ agent: 'steps', input: 'hourly report', source: 'schedule' });
    } finally {
      stop();
    }
  });

  it('runs a 02:30 New York schedule at 03:00 on the spring-forward day instead of skipping it', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    // One second before 03:00 EDT (07:00 UTC) on 8 March 2026, when 02:30 does not exist in New York.
    const base = Date.parse('2026-03-08T06:59:59.000Z');
    const realStart = Date.now();
    const now = () => new Date(base + (Date.now() - realStart));
    const stop = startSchedules(
      [{ cron: '30 2 * * *', timezone: 'America/New_York', agent: 'steps', input: 'nightly' }],
      server.app.runs,
      { now },
    );
    try {
      const runs = await eventually(async () => {
        const all = await server!.store.listRuns({ status: ['queued', 'running', 'done'] });
        return all.length > 0 ? all : undefined;
      }, 5000);
      expect(runs[0]).toMatchObject({ input: 'nightly', source: 'schedule' });
    } finally {
      stop();
    }
  });

  it('refuses a bad cron or an unknown agent with a ConfigError', async () => {
    server = embeddedApp({ agents: { steps: stepsAgent() } });
    expect(() => startSchedules([{ cron: 'often', agent: 'steps', input: 'x' }], server!.app.runs)).toThrow(
      /"often" is not valid: expected 5 fields/,
    );
    expect(() =>
      startSchedules([{ cron: '@daily', timezone: 'Mars/Olympus', agent: 'steps', input: 'x' }], server!.app.runs),
    ).toThrow(/"Mars\/Olympus" is not an IANA time zone.*"timezone"/);
    expect(() => startSchedules([{ cron: '* * * * *', agent: 'ghost', input: 'x' }], server!.app.runs)).toThrow(
      /ghost/,
    );
  });
});
