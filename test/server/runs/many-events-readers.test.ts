import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.js';
import { scriptedModel } from '../../../src/llm/index.js';
import { type RunningServer, serve } from '../../../src/server/index.js';
import { parseSse, tempDir } from '../server-fixtures.js';

/** Deltas the run streams: one event each, as a long answer streamed token by token makes. */
const DELTAS = 40_000;
// Each piece ends a word, so the stored deltas (which hold back a word that may be a credential) are the pieces.
// Without a word left over at the end, the call ends with no extra delta.
const ANSWER = 'lorem i '.repeat(DELTAS);

let server: RunningServer | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await server?.close();
  cleanup?.();
  server = undefined;
  cleanup = undefined;
});

describe('a run with many events', () => {
  it('is read by five SSE clients at once, in order, while /health keeps answering', async () => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    server = await serve({
      config: { agents: { long: () => new Agent({ model: scriptedModel([ANSWER], { streamChunkSize: 8 }) }) } },
      port: 0,
      dataDir: dir.path,
      log: () => {},
    });
    const { url } = server;
    const started = await fetch(`${url}/v1/agents/long/runs?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Say it at length.' }),
    });
    const run = (await started.json()) as { id: string; status: string };
    expect(run.status).toBe('done');

    // Blocks are bounded when written, whatever a commit holds: a page never decodes the whole log.
    const db = new Database(join(dir.path, 'runs.db'), { readonly: true });
    const biggest = db.prepare('SELECT MAX(last_seq - first_seq + 1) AS n FROM run_event_blocks').get() as {
      n: number;
    };
    db.close();
    expect(biggest.n).toBeLessThanOrEqual(256);

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let readersDone = false;
    const readers = Promise.all(
      Array.from({ length: 5 }, async () => parseSse(await (await fetch(`${url}/v1/runs/${run.id}/events`)).text())),
    ).finally(() => {
      readersDone = true;
    });
    const healthWhileReading: number[] = [];
    while (!readersDone) {
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      await health.text();
      if (!readersDone) healthWhileReading.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const read = await readers;
    delay.disable();

    for (const events of read) {
      expect(events.map((e) => Number(e.id))).toEqual(events.map((_, i) => i + 1));
      expect(events.at(-1)?.event).toBe('run_end');
      const text = events.filter((e) => e.event === 'model_delta').map((e) => JSON.parse(e.data).text);
      expect(text.length).toBe(DELTAS);
      expect(text.join('')).toBe(ANSWER);
    }
    // Health was answered again and again while the five read, not once they were done.
    expect(healthWhileReading.length).toBeGreaterThanOrEqual(5);
    // A safety net, not a performance claim (bench/sse-readers.bench.ts measures): the loop was never
    // held for seconds, as it was when each page decoded the whole log.
    expect(delay.max / 1e6).toBeLessThan(2000);
  }, 120_000);
});
