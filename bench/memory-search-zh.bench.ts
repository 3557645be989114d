/**
 * Chinese long-term memory search: SqliteMemoryStore (BM25 over the analysed index) on the 20k-memory
 * Chinese corpus of test/fixtures/memory/corpus-zh.ts, with its 200 labelled queries (queries-zh.json).
 * Prints recall@5 and MRR@5, next to the same corpus in an FTS5 index of the raw text (what the stores
 * did before the shared analysis: a run of Han characters is one token), and search latency.
 *
 * Run: node --import tsx bench/memory-search-zh.bench.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteMemoryStore } from '../src/memory/node.js';
import { buildChineseCorpus, type LabelledQuery } from '../test/fixtures/memory/corpus-zh.js';

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-bench-memory-zh-'));
try {
  const fixture = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'test', 'fixtures', 'memory', 'queries-zh.json'), 'utf8'),
  ) as { corpusSize: number; queries: LabelledQuery[] };
  const { memories } = buildChineseCorpus(fixture.corpusSize);
  const n = fixture.queries.length;
  const score = (ranked: (q: LabelledQuery) => number[]) => {
    let hits = 0;
    let reciprocal = 0;
    for (const q of fixture.queries) {
      const rank = ranked(q).findIndex((i) => q.relevant.includes(i));
      if (rank >= 0 && rank < 5) {
        hits++;
        reciprocal += 1 / (rank + 1);
      }
    }
    return `recall@5 ${(hits / n).toFixed(3)}, MRR@5 ${(reciprocal / n).toFixed(3)}`;
  };

  // Before: the raw text in FTS5 unicode61, queried with its words as the old query terms split them.
  const raw = new Database(join(dir, 'raw.db'));
  raw.exec("CREATE VIRTUAL TABLE fts USING fts5(text, tokenize = 'porter unicode61')");
  const insert = raw.prepare('INSERT INTO fts (rowid, text) VALUES (?, ?)');
  raw.transaction(() => {
    for (const [i, m] of memories.entries()) insert.run(i + 1, m.text);
  })();
  const rawSearch = raw.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 5').pluck();
  const before = score((q) => {
    const terms = [...new Set(q.query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
    return (rawSearch.all(terms.map((t) => `"${t}"`).join(' OR ')) as number[]).map((r) => r - 1);
  });
  raw.close();
  console.log(`memory search, Chinese (${memories.length} memories, ${n} labelled queries)`);
  console.log(`  raw-text FTS5 (before): ${before}`);

  const store = new SqliteMemoryStore({ file: join(dir, 'thinkflow.db') });
  let started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < memories.length; i += 5_000) {
    for (const m of await store.addMany(memories.slice(i, i + 5_000))) ids.push(m.id);
  }
  console.log(`  loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (segmenting included)`);
  const index = new Map(ids.map((id, i) => [id, i]));
  const results = new Map<LabelledQuery, number[]>();
  const latencies: number[] = [];
  for (const q of fixture.queries) {
    started = performance.now();
    const hits = await store.search(q.query, { k: 5 });
    latencies.push(performance.now() - started);
    results.set(
      q,
      hits.map((h) => index.get(h.memory.id) ?? -1),
    );
  }
  console.log(`  analysed index (after): ${score((q) => results.get(q) ?? [])}`);
  console.log(
    `  search p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p95 ${percentile(latencies, 0.95).toFixed(2)} ms`,
  );
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
