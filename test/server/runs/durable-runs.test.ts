import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { lines, parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, servedConfig } from '../spawn-server.js';

const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'durable.config.ts');
const { start, cleanups } = servedConfig(CONFIG);

describe('durable runs', () => {
  it('resumes after kill -9 from the last checkpoint: finished calls are kept, in-flight ones rerun only if idempotent', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = {
      COUNT_FILE: join(dir.path, 'calls.txt'),
      GATE_FILE: join(dir.path, 'gate'),
      THINKFLOW_API_TOKENS: '',
    };
    const first = await start(dir.path, env);
    const created = await fetch(`${first.url}/v1/agents/durable/runs`, postJson({ input: 'do the things' }));
    const { id } = (await created.json()) as RunRecord;
    // Two calls done and checkpointed, two in flight.
    await eventually(() => (lines(env.COUNT_FILE).length === 4 ? true : undefined), 60_000);
    await first.kill('SIGKILL');

    writeFileSync(env.GATE_FILE, '');
    const second = await start(dir.path, env);
    const run = await eventually(async () => {
      const body = (await (await fetch(`${second.url}/v1/runs/${id}`)).json()) as RunRecord;
      return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
    }, 60_000);
    const events = parseSse(await (await fetch(`${second.url}/v1/runs/${id}/events`)).text());

    expect(run.status).toBe('done');
    expect(run.result?.output).toBe('Finished after a restart.');
    const calls = lines(env.COUNT_FILE);
    expect(calls.filter((c) => c === 'a')).toHaveLength(1);
    expect(calls.filter((c) => c === 'b')).toHaveLength(1);
    expect(calls.filter((c) => c === 'slow-start')).toHaveLength(2);
    expect(calls.filter((c) => c === 'once-start')).toHaveLength(1);
    const [slow, once] = run.result?.steps[2].toolCalls ?? [];
    expect(slow.output).toBe('slow done');
    expect(once.output).toContain('interrupted');
    expect(events.filter((e) => e.event === 'run_end')).toHaveLength(1);
    expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
  }, 300_000);
});
