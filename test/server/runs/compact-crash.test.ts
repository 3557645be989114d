import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/server/index.js';
import { lines, parseSse, postJson, tempDir } from '../server-fixtures.js';
import { eventually, type ServerProcess, spawnCli } from '../spawn-server.js';

// Six lookups under a small budget (old results cleared), then `slow`, which waits for GATE_FILE.
const CONFIG = join(import.meta.dirname, '..', 'fixtures', 'compact-crash.config.ts');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function spawn(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  const child = await spawnCli(args, env);
  cleanups.push(() => child.kill());
  return child;
}

/** Reads the run's SSE log until `done` holds for the events stored so far (committed), then hangs up. */
async function untilStored(url: string, runId: string, done: (events: string[]) => boolean): Promise<void> {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/runs/${runId}/events`, { signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error('The event stream ended first.');
      text += value;
      if (done(parseSse(text).map((e) => e.event ?? ''))) return;
    }
  } finally {
    controller.abort();
  }
}

describe('kill -9 after a compaction', () => {
  it('embedded (SQLite): the restarted run sends the compacted context it had, plus the new step, byte for byte', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const env = {
      COUNT_FILE: join(dir.path, 'calls.txt'),
      GATE_FILE: join(dir.path, 'gate'),
      REQUESTS_FILE: join(dir.path, 'requests.txt'),
      THINKFLOW_API_TOKENS: '',
    };
    const args = ['serve', '--port', '0', '--config', CONFIG, '--data-dir', dir.path];
    const first = await spawn(args, env);
    const created = await fetch(`${first.url}/v1/agents/long/runs`, postJson({ input: 'Look six topics up.' }));
    const { id } = (await created.json()) as RunRecord;
    // Stored: the compaction, and the start of the seventh call (`slow`), which then waits for the gate.
    await untilStored(
      first.url,
      id,
      (events) => events.includes('context_compact') && events.filter((e) => e === 'tool_start').length === 7,
    );
    await eventually(() => lines(env.COUNT_FILE).includes('slow-start') || undefined);
    await first.kill('SIGKILL');
    const before = lines(env.REQUESTS_FILE);

    writeFileSync(env.GATE_FILE, '');
    const second = await spawn(args, env);
    const run = await eventually(async () => {
      const body = (await (await fetch(`${second.url}/v1/runs/${id}`)).json()) as RunRecord;
      return ['queued', 'running', 'waiting'].includes(body.status) ? undefined : body;
    }, 120_000);
    expect(run.status).toBe('done');
    expect(run.result?.output).toBe('Done after a restart.');
    expect(lines(env.COUNT_FILE).filter((l) => l.startsWith('lookup'))).toHaveLength(6);

    const requests = lines(env.REQUESTS_FILE).map((l) => JSON.parse(l) as { messages: unknown[]; tools: unknown[] });
    expect(requests).toHaveLength(before.length + 1);
    const [killed, resumed] = requests.slice(-2);
    // The request before the kill had cleared results; the one after the restart is it plus the slow step.
    expect(JSON.stringify(killed.messages)).toContain(
      '[Result cleared to save context; recall_result {\\"callId\\":\\"c1\\"} returns it.]',
    );
    expect(JSON.stringify(resumed.tools)).toBe(JSON.stringify(killed.tools));
    expect(JSON.stringify(resumed.messages).startsWith(JSON.stringify(killed.messages).slice(0, -1))).toBe(true);
    expect(resumed.messages.length).toBe(killed.messages.length + 2);
    const events = parseSse(await (await fetch(`${second.url}/v1/runs/${id}/events`)).text());
    expect(events.filter((e) => e.event === 'run_end')).toHaveLength(1);
  }, 300_000);
});
