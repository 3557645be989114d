import type Database from 'better-sqlite3';
import type { Memory, MemoryFilter, MemoryHit, MemoryInput, MemorySearchOptions, MemoryStore } from './memory-store.js';
import { newMemories } from './new-memories.js';
import { openSqliteTables, type SqliteLocation, sqliteCall } from './open-sqlite.js';
import { cosineSimilarity, type MemoryRanking, rankMemories } from './rank-memories.js';
import { filterSql, ftsSearch, type TermCounts } from './sqlite-fts-search.js';
import { ensureAnalyzedIndex, indexMemory } from './sqlite-memory-index.js';
import { storedMemory } from './stored-memory.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS memories (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  metadata TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  embedding BLOB,
  embedding_model TEXT
);
CREATE INDEX IF NOT EXISTS memories_kind_created ON memories (kind, created_at);
CREATE INDEX IF NOT EXISTS memories_created ON memories (created_at);
CREATE TABLE IF NOT EXISTS memory_tags (
  tag TEXT NOT NULL,
  memory_rowid INTEGER NOT NULL,
  PRIMARY KEY (tag, memory_rowid)
) WITHOUT ROWID;
`;

interface Row {
  rowid: number;
  id: string;
  kind: string;
  text: string;
  tags: string;
  metadata: string | null;
  created_at: number;
  updated_at: number;
  score?: number;
}

/** Options of `SqliteMemoryStore`: where its file is, and how it ranks (BM25, and with `embed` hybrid search). */
export interface SqliteMemoryStoreOptions extends SqliteLocation, MemoryRanking {}

/**
 * Long-term memory in SQLite: FTS5 with BM25 ranking by default, so it works with no embedding
 * model; with `embed`, hybrid search. Same file as the sessions (`~/.thinkflow/thinkflow.db`), WAL
 * mode, so searches never wait for a writer and two processes can write at once.
 *
 * @example
 * const memory = new SqliteMemoryStore({ dataDir: './.thinkflow' });
 * await memory.add({ kind: 'fact', text: 'The user prefers metric units.', tags: ['user'] });
 * const hits = await memory.search('which units?', { k: 3 });
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly #options: SqliteMemoryStoreOptions;
  #db?: Database.Database;
  #file = '';
  readonly #termCounts: TermCounts = new Map();

  constructor(options: SqliteMemoryStoreOptions = {}) {
    this.#options = options;
  }

  #open(): Database.Database {
    if (!this.#db) {
      const { db, file } = openSqliteTables(this.#options, 'create the memory tables in', (opened) => {
        opened.exec(SCHEMA);
        ensureAnalyzedIndex(opened);
      });
      this.#file = file;
      this.#db = db;
    }
    return this.#db;
  }

  #call<T>(action: string, fn: (db: Database.Database) => T): T {
    const db = this.#open();
    return sqliteCall(this.#file, action, () => fn(db));
  }

  async add(input: MemoryInput, options: { signal?: AbortSignal } = {}): Promise<Memory> {
    const [memory] = await this.addMany([input], options);
    return memory;
  }

  async addMany(inputs: MemoryInput[], options: { signal?: AbortSignal } = {}): Promise<Memory[]> {
    // Embedded before the write lock is taken: the slow part never holds up other writers.
    const { memories, vectors, model } = await newMemories(inputs, {
      embed: this.#options.embed,
      signal: options.signal,
    });
    this.#call('write to', (db) => {
      const insert = db.prepare(
        `INSERT INTO memories (id, kind, text, tags, metadata, created_at, updated_at, embedding, embedding_model)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const tag = db.prepare('INSERT OR IGNORE INTO memory_tags (tag, memory_rowid) VALUES (?, ?)');
      const index = indexMemory(db);
      db.transaction(() => {
        memories.forEach((m, i) => {
          const vector = vectors?.[i] ? Buffer.from(new Float32Array(vectors[i]).buffer) : null;
          const { lastInsertRowid } = insert.run(
            m.id,
            m.kind,
            m.text,
            JSON.stringify(m.tags),
            m.metadata ? JSON.stringify(m.metadata) : null,
            m.createdAt,
            m.updatedAt,
            vector,
            vector ? model : null,
          );
          for (const t of m.tags) tag.run(t, lastInsertRowid);
          index(lastInsertRowid, m.text, m.tags);
        });
      }).immediate();
    });
    return memories;
  }

  async search(query: string, options: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    const { embed } = this.#options;
    const [where, params] = filterSql(options);
    return rankMemories({
      query,
      search: options,
      ranking: this.#options,
      lexical: async (limit) => {
        const rows = this.#call('search', (db) =>
          ftsSearch(db, query, options, limit, this.#termCounts),
        ) as unknown as Row[];
        return rows.map((row) => ({ memory: this.#memory(row), score: -(row.score ?? 0) }));
      },
      vector: async (embedding, limit) => {
        const top: { rowid: number; score: number }[] = [];
        this.#call('search', (db) => {
          const rows = db
            .prepare(
              `SELECT m.rowid, m.embedding FROM memories m WHERE m.embedding_model = ? ${where.map((w) => `AND ${w}`).join(' ')}`,
            )
            .iterate(embed!.id, ...params) as IterableIterator<{ rowid: number; embedding: Buffer }>;
          for (const row of rows) {
            const vector = new Float32Array(
              row.embedding.buffer,
              row.embedding.byteOffset,
              row.embedding.byteLength / 4,
            );
            const score = cosineSimilarity(embedding, vector);
            if (top.length < limit || score > top[top.length - 1].score) {
              top.push({ rowid: row.rowid, score });
              top.sort((a, b) => b.score - a.score);
              if (top.length > limit) top.pop();
            }
          }
        });
        const get = this.#call('search', (db) => db.prepare('SELECT * FROM memories WHERE rowid = ?'));
        return top.map(({ rowid, score }) => ({ memory: this.#memory(get.get(rowid) as Row), score }));
      },
    });
  }

  async get(id: string): Promise<Memory | undefined> {
    const row = this.#call(
      'read',
      (db) => db.prepare('SELECT * FROM memories WHERE id = ?').get(id) as Row | undefined,
    );
    return row ? this.#memory(row) : undefined;
  }

  async delete(id: string): Promise<boolean> {
    return this.#call('write to', (db) => db.prepare('DELETE FROM memories WHERE id = ?').run(id).changes > 0);
  }

  async list(filter: MemoryFilter = {}): Promise<Memory[]> {
    const [where, params] = filterSql(filter);
    const rows = this.#call(
      'read',
      (db) =>
        db
          .prepare(
            `SELECT m.* FROM memories m ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY m.created_at DESC, m.rowid DESC LIMIT ? OFFSET ?`,
          )
          .all(...params, filter.limit ?? 100, filter.offset ?? 0) as Row[],
    );
    return rows.map((row) => this.#memory(row));
  }

  async close(): Promise<void> {
    this.#db?.close();
    this.#db = undefined;
  }

  #memory(row: Row): Memory {
    return storedMemory(
      {
        id: row.id,
        kind: row.kind,
        text: row.text,
        tags: safeJson(row.tags) ?? [],
        ...(row.metadata ? { metadata: safeJson(row.metadata) } : {}),
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      },
      { where: this.#file, remove: `thinkflow memory rm ${row.id}` },
    );
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
