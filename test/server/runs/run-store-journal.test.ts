import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Checkpoint, scriptedModel } from '../../../src/index.js';
import { memoryRunStore, type RunRecord, runStoreJournal, SqliteRunStore } from '../../../src/server/index.js';
import { counted, until } from '../../agent/durable/counted-tools.js';
import { calls } from '../../agent/helpers.js';
import { parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('runStoreJournal: the built-in engine step journal, in the run store', () => {
  it('a resumed step reads its ended calls back from the journal, not from the checkpoint', async () => {
    const store = memoryRunStore();
    let latest: Checkpoint | undefined;
    const first = counted();
    const controller = new AbortController();
    const journal = runStoreJournal({ store, runId: 'r1', signal: controller.signal });
    const running = new Agent({
      model: scriptedModel([calls(['lookup', {}], ['charge', {}], ['slow', {}]), 'never']),
      tools: first.tools,
    }).run('pay', {
      runId: 'r1',
      signal: controller.signal,
      journal,
      onCheckpoint: (checkpoint) => {
        latest = JSON.parse(JSON.stringify(checkpoint)) as Checkpoint;
      },
    });
    await until(() => first.runs.slow === 1 && latest?.pending !== undefined);
    await until(() => (latest?.pending?.done.length ?? 0) === 2);
    controller.abort();
    await running;

    const entries = await store.readJournal('r1');
    const ids = latest!.pending!.calls.map((c) => c.id);
    // The model call, lookup (idempotent: one step), charge (its start, then its end); slow was stopped: no end.
    // The calls run in parallel: their records come in the order they were written.
    expect(entries.map((e) => e.key).sort()).toEqual(['0', `0/${ids[0]}`, `0/${ids[1]}`, `0/${ids[1]}:start`]);
    expect(entries.find((e) => e.key === `0/${ids[1]}`)?.record).toMatchObject({
      type: 'step',
      ok: true,
      value: { type: 'ok', value: 'charged 42' },
    });

    // The checkpoint's own records of the ended calls are dropped: only the journal can answer them.
    const resume: Checkpoint = { ...latest!, pending: { ...latest!.pending!, done: [] } };
    const second = counted();
    second.release();
    const model = scriptedModel(['All paid.']);
    const replay = runStoreJournal({ store, runId: 'r1', entries, step: resume.pending!.index });
    const result = await new Agent({ model, tools: second.tools }).run('pay', { runId: 'r1', resume, journal: replay });

    expect(result.status).toBe('done');
    expect(second.runs).toEqual({ slow: 1 });
    expect(result.steps[0].toolCalls.map((c) => c.output)).toEqual(['lookup result', 'charged 42', 'slow result']);
    expect(JSON.stringify(model.calls[0].messages)).not.toContain('interrupted');
  });

  it('records answers, seeds, times and failures, and reads them back from a SQLite store after reopening', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const path = join(dir.path, 'runs.db');
    const store = new SqliteRunStore({ path });
    const journal = runStoreJournal({ store, runId: 'r2' });
    const announced: string[] = [];
    const answer = journal.answer<{ approved: boolean }>('approval:0/c1', (id) => announced.push(id));
    await journal.resolve('approval:0/c1', { approved: true });
    expect(await answer).toEqual({ approved: true });
    const seed = await journal.seed();
    const now = await journal.now();
    await expect(
      journal.step({ kind: 'tool', name: 'x', key: '1/c2' }, () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await store.close();

    const reopened = new SqliteRunStore({ path });
    cleanups.push(() => reopened.close());
    const entries = await reopened.readJournal('r2');
    expect(entries.map((e) => e.key)).toEqual(['approval:0/c1', 'seed@0#0', 'now@0#0', '1/c2']);
    const replay = runStoreJournal({ store: reopened, runId: 'r2', entries });
    expect(await replay.answer('approval:0/c1', (id) => announced.push(id))).toEqual({ approved: true });
    expect(announced).toEqual(['approval:0/c1']);
    expect([await replay.seed(), await replay.now()]).toEqual([seed, now]);
    let ran = false;
    const failed = replay.step({ kind: 'tool', name: 'x', key: '1/c2' }, async () => {
      ran = true;
    });
    await expect(failed).rejects.toThrow('boom');
    expect(ran).toBe(false);
    // A draw in a later step is a new one.
    expect(await replay.now()).toBeGreaterThanOrEqual(now);
    expect((await reopened.readJournal('r2')).at(-1)?.key).toBe('now@1#0');
  });
});

describe('thinkflow serve runs on the store journal', () => {
  it('kill -9 mid-step: the restarted server reads the ended calls back from the journal in runs.db', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = {
      COUNT_FILE: join(dir.path, 'calls.txt'),
      GATE_FILE: join(dir.path, 'gate'),
      REQUESTS_FILE: join(dir.path, 'requests.txt'),
      THINKFLOW_API_TOKENS: '',
    };
    const config = join(import.meta.dirname, '..', 'fixtures', 'crash-step.config.ts');
    const args = ['serve', '--port', '0', '--config', config, '--data-dir', dir.path];
    const spawn = async () => {
      const child: ServerProcess = await spawnCli(args, env);
      cleanups.push(() => child.kill());
      return child;
    };
    const lines = () => (existsSync(env.COUNT_FILE) ? readFileSync(env.COUNT_FILE, 'utf8').split('\n') : []);
    const first = await spawn();
    const created = await fetch(`${first.url}/v1/agents/step/runs`, postJson({ input: 'go' }));
    const { id } = (await created.json()) as RunRecord;
    const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
    cleanups.push(() => store.close());
    // lookup and charge ended (their records are committed), slow runs: the kill comes now.
    await eventually(async () =>
      (await store.readJournal(id)).some((e) => e.key === '0/call-charge') ? true : undefined,
    );
    await eventually(async () => (lines().includes('slow-start') ? true : undefined));
    await first.kill('SIGKILL');

    writeFileSync(env.GATE_FILE, '');
    const second = await spawn();
    const run = await eventually(async () => {
      const body = (await (await fetch(`${second.url}/v1/runs/${id}`)).json()) as RunRecord;
      return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
    }, 120_000);
    expect(run.status).toBe('done');
    expect(lines().filter((l) => l === 'lookup' || l === 'charge' || l === 'slow-start')).toEqual([
      'lookup',
      'charge',
      'slow-start',
    ]);
    const journal = await store.readJournal(id);
    // The model's first call, then the three calls in parallel (in the order their records were written);
    // then, on resume, slow's end (it was cut off, and not idempotent: not run again) and the model's second call.
    const keys = journal.map((e) => e.key);
    expect(keys[0]).toBe('0');
    expect(keys.slice(1, 5).sort()).toEqual([
      '0/call-charge',
      '0/call-charge:start',
      '0/call-lookup',
      '0/call-slow:start',
    ]);
    expect(keys.slice(5)).toEqual(['0/call-slow', '1']);
    // The log: each call started and ended once (the resumed step's events that the log held were left out).
    const events = parseSse(await (await fetch(`${second.url}/v1/runs/${id}/events`)).text());
    const ofCalls = (type: string) =>
      events
        .filter((e) => e.event === type)
        .map((e) => (JSON.parse(e.data) as { callId: string }).callId)
        .sort();
    expect(ofCalls('tool_start')).toEqual(['call-charge', 'call-lookup', 'call-slow']);
    expect(ofCalls('tool_end')).toEqual(['call-charge', 'call-lookup', 'call-slow']);
    const slow = journal.find((e) => e.key === '0/call-slow')?.record;
    expect(slow).toMatchObject({ type: 'step', ok: true, value: { type: 'error' } });
    expect(JSON.stringify(slow)).toMatch(/interrupted by a restart/);
  }, 300_000);
});
