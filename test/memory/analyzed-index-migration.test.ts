import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresMemoryStore } from '../../src/memory/index.js';
import { SqliteMemoryStore } from '../../src/memory/node.js';

// The memory schema as the stores before the analysed index wrote it: FTS5 mirrored the raw text
// through triggers, and PostgreSQL's tsv was to_tsvector('english', text || tags).
const OLD_SQLITE = `
CREATE TABLE memories (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, text TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]', metadata TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  embedding BLOB, embedding_model TEXT);
CREATE TABLE memory_tags (tag TEXT NOT NULL, memory_rowid INTEGER NOT NULL, PRIMARY KEY (tag, memory_rowid)) WITHOUT ROWID;
CREATE VIRTUAL TABLE memories_fts USING fts5(text, tags, content = 'memories', content_rowid = 'rowid', tokenize = 'porter unicode61');
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts (rowid, text, tags) VALUES (new.rowid, new.text, new.tags);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, text, tags) VALUES ('delete', old.rowid, old.text, old.tags);
  DELETE FROM memory_tags WHERE memory_rowid = old.rowid;
END;`;

const ROWS = [
  ['mem_a', '用户喜欢使用公制单位', '["用户"]'],
  ['mem_b', 'The user prefers metric units.', '["user"]'],
  ['mem_c', '北京今天天气晴', '[]'],
];

describe('a store written before the analysed index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'thinkflow-migrate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('SQLite: is re-indexed on open, so Chinese words inside a run are found, and deletes still work', async () => {
    const file = join(dir, 'old.db');
    const old = new Database(file);
    old.exec(OLD_SQLITE);
    const insert = old.prepare(
      'INSERT INTO memories (id, kind, text, tags, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 1)',
    );
    for (const [id, text, tags] of ROWS) insert.run(id, 'fact', text, tags);
    // What the old index gives: the whole run is one token.
    expect(old.prepare('SELECT count(*) FROM memories_fts WHERE memories_fts MATCH \'"公制单位"\'').pluck().get()).toBe(
      0,
    );
    old.close();

    const store = new SqliteMemoryStore({ file });
    expect((await store.search('公制单位'))[0]?.memory.id).toBe('mem_a');
    expect((await store.search('metric units'))[0]?.memory.id).toBe('mem_b');
    expect((await store.search('天气'))[0]?.memory.id).toBe('mem_c');
    await store.add({ kind: 'fact', text: '上海明天有雨' });
    expect(await store.delete('mem_c')).toBe(true);
    expect(await store.search('天气')).toEqual([]);
    expect((await store.search('上海'))[0]?.memory.text).toBe('上海明天有雨');
    await store.close();
    // Opening again finds the index done and keeps it.
    const again = new SqliteMemoryStore({ file });
    expect((await again.search('公制'))[0]?.memory.id).toBe('mem_a');
    await again.close();
  });

  it('PostgreSQL: rows are re-analysed on open', async () => {
    const pool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 2 });
    pool.on('error', () => {});
    const schema = `thinkflow_chinese_${process.pid}`;
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await pool.query(`CREATE TABLE "${schema}".memories (
        seq BIGSERIAL, id TEXT PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, tags TEXT[] NOT NULL DEFAULT '{}',
        metadata JSONB, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, tsv TSVECTOR NOT NULL,
        embedding REAL[], embedding_model TEXT)`);
      for (const [id, text, tags] of ROWS) {
        const list = JSON.parse(tags) as string[];
        await pool.query(
          `INSERT INTO "${schema}".memories (id, kind, text, tags, created_at, updated_at, tsv)
           VALUES ($1, 'fact', $2, $3, 1, 1, to_tsvector('english', $4))`,
          [id, text, list, `${text} ${list.join(' ')}`],
        );
      }
      const store = new PostgresMemoryStore({ pool, schema, table: 'memories', pgvector: false });
      expect((await store.search('公制单位'))[0]?.memory.id).toBe('mem_a');
      expect((await store.search('metric units'))[0]?.memory.id).toBe('mem_b');
      expect((await store.search('天气'))[0]?.memory.id).toBe('mem_c');
      await store.add({ kind: 'fact', text: '上海明天有雨' });
      expect((await store.search('上海'))[0]?.memory.text).toBe('上海明天有雨');
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  });
});
