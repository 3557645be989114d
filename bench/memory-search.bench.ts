/**
 * Long-term memory search on 100k memories: SqliteMemoryStore with BM25 alone. Prints search
 * p50/p95 latency and recall@5 on the committed labelled query set (test/fixtures/memory/queries.json,
 * built from a seeded corpus), write latency, and search latency while another process writes.
 *
 * Run: node --import tsx bench/memory-search.bench.ts
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '../src/memory/node.js';
import { buildCorpus, type LabelledQuery } from '../test/fixtures/memory/corpus.js';

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (x: number) => `${x.toFixed(2)} ms`;

{
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-bench-memory-'));
  const file = join(dir, 'thinkflow.db');
  try {
    const fixture = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'memory', 'queries.json'), 'utf8'),
    ) as { corpusSize: number; queries: LabelledQuery[] };
    const { memories } = buildCorpus(fixture.corpusSize);
    const store = new SqliteMemoryStore({ file });

    let started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < memories.length; i += 5_000) {
      for (const m of await store.addMany(memories.slice(i, i + 5_000))) ids.push(m.id);
    }
    const loadMs = performance.now() - started;
    console.log(
      `memory search: ${ids.length} memories loaded in ${(loadMs / 1000).toFixed(1)} s (${Math.round(ids.length / (loadMs / 1000))}/s), file ${(statSync(file).size / 1e6).toFixed(0)} MB`,
    );

    for (const q of fixture.queries.slice(0, 20)) await store.search(q.query, { k: 5 }); // warm the page cache
    const latencies: number[] = [];
    let hits = 0;
    let reciprocal = 0;
    for (const q of fixture.queries) {
      started = performance.now();
      const result = await store.search(q.query, { k: 5 });
      latencies.push(performance.now() - started);
      const relevant = new Set(q.relevant.map((i) => ids[i]));
      const rank = result.findIndex((h) => relevant.has(h.memory.id));
      if (rank >= 0) {
        hits++;
        reciprocal += 1 / (rank + 1);
      }
    }
    const n = fixture.queries.length;
    console.log(
      `BM25 search (k=5, ${n} labelled queries): p50 ${ms(percentile(latencies, 0.5))}, p95 ${ms(percentile(latencies, 0.95))}, target p50 < 10 ms`,
    );
    console.log(`quality: recall@5 ${(hits / n).toFixed(3)}, MRR@5 ${(reciprocal / n).toFixed(3)}`);

    const filtered: number[] = [];
    for (const q of fixture.queries) {
      started = performance.now();
      await store.search(q.query, { k: 5, kinds: ['fact', 'skill'] });
      filtered.push(performance.now() - started);
    }
    console.log(
      `BM25 search with a kinds filter: p50 ${ms(percentile(filtered, 0.5))}, p95 ${ms(percentile(filtered, 0.95))}`,
    );

    const writes: number[] = [];
    for (let i = 0; i < 200; i++) {
      started = performance.now();
      await store.add({ kind: 'fact', text: `single write ${i} about the release checklist`, tags: ['bench'] });
      writes.push(performance.now() - started);
    }
    console.log(`single add() with 100k rows: p50 ${ms(percentile(writes, 0.5))}, p95 ${ms(percentile(writes, 0.95))}`);

    // Another process adds memories one by one, as fast as it can, while this one searches: WAL readers never wait.
    const fixtureDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'memory');
    const writer = spawn(
      process.execPath,
      ['--import', 'tsx', join(fixtureDir, 'add-memories.ts'), file, '1000000', 'bg'],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
    writer.stdin.write('go\n');
    await new Promise((r) => setTimeout(r, 300));
    const underLoad: number[] = [];
    const loadStart = performance.now();
    for (const q of fixture.queries) {
      started = performance.now();
      await store.search(q.query, { k: 5 });
      underLoad.push(performance.now() - started);
    }
    const seconds = (performance.now() - loadStart) / 1000;
    const exited = once(writer, 'exit');
    writer.kill();
    await exited;
    const written = (await store.list({ tags: ['bg'], limit: 1_000_000 })).length;
    console.log(
      `search while another process writes (${written} adds in ${seconds.toFixed(1)} s + 0.3 s warm-up): p50 ${ms(percentile(underLoad, 0.5))}, p95 ${ms(percentile(underLoad, 0.95))}; ratio to quiet p50 ${(percentile(underLoad, 0.5) / percentile(latencies, 0.5)).toFixed(2)}x`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
