import type pg from 'pg';
import { analyzeText, errorMessage, isThinkflowError, queryTerms, requireOptional, StoreError } from '../core/index.js';
import type { Memory, MemoryFilter, MemoryHit, MemoryInput, MemorySearchOptions, MemoryStore } from './memory-store.js';
import { newMemories } from './new-memories.js';
import { inTransaction, withSchemaLock } from './postgres-transaction.js';
import { cosineSimilarity, type MemoryRanking, rankMemories } from './rank-memories.js';
import { storedMemory } from './stored-memory.js';

export interface PostgresMemoryStoreOptions extends MemoryRanking {
  /** `postgres://user@host:5432/db`; or pass your own `pool`. */
  connectionString?: string;
  pool?: pg.Pool;
  /** Schema holding the table (created if missing). Default `public`. */
  schema?: string;
  /** Default `thinkflow_memories`. */
  table?: string;
  /** Store vectors with pgvector. Default: when the extension is available. */
  pgvector?: boolean;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

interface Row {
  id: string;
  kind: string;
  text: string;
  tags: string[];
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  score?: number;
}

/**
 * Long-term memory in PostgreSQL, for agents spread over machines: full-text search (tsvector,
 * ts_rank) by default, and with `embed`, hybrid search over vectors kept with pgvector when the
 * extension is installed, else as `real[]` compared in process.
 *
 * @example
 * const memory = new PostgresMemoryStore({ connectionString: 'postgres://127.0.0.1:5432/app' });
 */
export class PostgresMemoryStore implements MemoryStore {
  readonly #options: PostgresMemoryStoreOptions;
  readonly #pool: pg.Pool;
  readonly #ownPool: boolean;
  readonly #table: string;
  #ready?: Promise<'pgvector' | 'array'>;

  constructor(options: PostgresMemoryStoreOptions = {}) {
    const schema = options.schema ?? 'public';
    const table = options.table ?? 'thinkflow_memories';
    for (const name of [schema, table]) {
      if (!IDENT.test(name)) throw new StoreError({ message: `"${name}" must be lower-case letters, digits or "_".` });
    }
    this.#options = options;
    this.#table = `"${schema}"."${table}"`;
    this.#ownPool = !options.pool;
    // pg loads here, on first use: it is an optional peer dependency.
    this.#pool =
      options.pool ??
      new (requireOptional<typeof pg>('postgres', 'pg').Pool)({ connectionString: options.connectionString, max: 4 });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    if (this.#ownPool) this.#pool.on('error', () => {});
  }

  /** How vectors are stored: `pgvector`, or `array` (real[], compared in process). */
  vectorMode(): Promise<'pgvector' | 'array'> {
    this.#ready ??= this.#init().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #init(): Promise<'pgvector' | 'array'> {
    const schema = this.#options.schema ?? 'public';
    const table = this.#options.table ?? 'thinkflow_memories';
    return withSchemaLock({ pool: this.#pool, schema }, async (client) => {
      const vector = await this.#createVectorExtension(client);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.#table} (
          seq BIGSERIAL, id TEXT PRIMARY KEY, kind TEXT NOT NULL, text TEXT NOT NULL, tags TEXT[] NOT NULL DEFAULT '{}',
          metadata JSONB, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, tsv TSVECTOR NOT NULL,
          embedding ${vector ? 'vector' : 'REAL[]'}, embedding_model TEXT
        )`,
      );
      await analyzeOldRows(client, this.#table);
      await client.query(`CREATE INDEX IF NOT EXISTS "${table}_tsv" ON ${this.#table} USING GIN (tsv)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${table}_tags" ON ${this.#table} USING GIN (tags)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${table}_created" ON ${this.#table} (created_at DESC, seq DESC)`);
      // An existing table decides: it may predate (or postdate) the extension.
      const column = await client.query<{ udt_name: string }>(
        `SELECT udt_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = 'embedding'`,
        [schema, table],
      );
      return column.rows[0]?.udt_name === 'vector' ? 'pgvector' : 'array';
    }).catch((error: unknown) => {
      throw isThinkflowError(error) ? error : this.#error('create', error);
    });
  }

  /** Whether pgvector is there to use, creating it when allowed; `pgvector: true` makes its absence an error. */
  async #createVectorExtension(client: pg.PoolClient): Promise<boolean> {
    if (this.#options.pgvector === false) return false;
    // The extension is database-wide, so stores on other schemas race for it too: the loser would fall
    // back to real[] for good. This lock makes them take turns.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['thinkflow:extension:vector']);
    // A failed statement spoils the whole transaction; rolling back to the savepoint keeps the rest.
    await client.query('SAVEPOINT vector');
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      return true;
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT vector');
      if (this.#options.pgvector === true) throw this.#error('enable pgvector in', error);
      return false;
    }
  }

  async #query<R extends pg.QueryResultRow>(action: string, sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.#pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.#error(action, error);
    }
  }

  #error(action: string, error: unknown): StoreError {
    const code = (error as { code?: string }).code;
    const fix =
      code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '3D000' || code === '28000'
        ? ' Check that PostgreSQL is running and the connection string (host, port, user, database).'
        : '';
    return new StoreError({
      message: `PostgreSQL could not ${action} ${this.#table}: ${errorMessage(error)}.${fix}`,
      cause: error,
    });
  }

  async add(input: MemoryInput, options: { signal?: AbortSignal } = {}): Promise<Memory> {
    const [memory] = await this.addMany([input], options);
    return memory;
  }

  async addMany(inputs: MemoryInput[], options: { signal?: AbortSignal } = {}): Promise<Memory[]> {
    // The table first: a store that cannot be reached fails before the embedding is paid for.
    const mode = await this.vectorMode();
    const { memories, vectors, model } = await newMemories(inputs, {
      embed: this.#options.embed,
      signal: options.signal,
    });
    await inTransaction(this.#pool, async (client) => {
      for (const [i, m] of memories.entries()) {
        const vector = vectors?.[i];
        await client.query(
          `INSERT INTO ${this.#table} (id, kind, text, tags, metadata, created_at, updated_at, tsv, embedding, embedding_model, analyzer)
           VALUES ($1, $2, $3, $4, $5, $6, $7, to_tsvector('english', $8), $9${mode === 'pgvector' ? '::vector' : '::real[]'}, $10, ${ANALYZER})`,
          [
            m.id,
            m.kind,
            m.text,
            m.tags,
            m.metadata ? JSON.stringify(m.metadata) : null,
            m.createdAt,
            m.updatedAt,
            tsvText(m.text, m.tags),
            vector ? (mode === 'pgvector' ? JSON.stringify(vector) : vector) : null,
            vector ? model : null,
          ],
        );
      }
    }).catch((error: unknown) => {
      throw this.#error('write to', error);
    });
    return memories;
  }

  async search(query: string, options: MemorySearchOptions = {}): Promise<MemoryHit[]> {
    const mode = await this.vectorMode();
    const { embed } = this.#options;
    return rankMemories({
      query,
      search: options,
      ranking: this.#options,
      lexical: async (limit) => {
        const terms = queryTerms(query);
        if (!terms.length) return [];
        const [where, params] = filterSql(options, 2);
        const rows = await this.#query<Row>(
          'search',
          `SELECT m.*, ts_rank(m.tsv, q) AS score FROM ${this.#table} m, to_tsquery('english', $1) q
           WHERE m.tsv @@ q ${where.map((w) => `AND ${w}`).join(' ')} ORDER BY score DESC, m.seq DESC LIMIT ${Number(limit)}`,
          [terms.join(' | '), ...params],
        );
        return rows.map((row) => ({ memory: this.#memory(row), score: Number(row.score) }));
      },
      vector: async (embedding, limit) => {
        const [where, params] = filterSql(options, 3);
        const conditions = where.map((w) => `AND ${w}`).join(' ');
        if (mode === 'pgvector') {
          const rows = await this.#query<Row>(
            'search',
            `SELECT m.*, 1 - (m.embedding <=> $1::vector) AS score FROM ${this.#table} m
             WHERE m.embedding_model = $2 ${conditions} ORDER BY m.embedding <=> $1::vector LIMIT ${Number(limit)}`,
            [JSON.stringify(embedding), embed!.id, ...params],
          );
          return rows.map((row) => ({ memory: this.#memory(row), score: Number(row.score) }));
        }
        const rows = await this.#query<Row & { embedding: number[] }>(
          'search',
          `SELECT m.* FROM ${this.#table} m WHERE m.embedding_model = $2 AND $1::int IS NOT NULL ${conditions}`,
          [embedding.length, embed!.id, ...params],
        );
        return rows
          .map((row) => ({ memory: this.#memory(row), score: cosineSimilarity(embedding, row.embedding) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, limit);
      },
    });
  }

  async get(id: string): Promise<Memory | undefined> {
    await this.vectorMode();
    const rows = await this.#query<Row>('read', `SELECT * FROM ${this.#table} WHERE id = $1`, [id]);
    return rows[0] ? this.#memory(rows[0]) : undefined;
  }

  async delete(id: string): Promise<boolean> {
    await this.vectorMode();
    return (
      (await this.#query<{ id: string }>('write to', `DELETE FROM ${this.#table} WHERE id = $1 RETURNING id`, [id]))
        .length > 0
    );
  }

  async list(filter: MemoryFilter = {}): Promise<Memory[]> {
    await this.vectorMode();
    const [where, params] = filterSql(filter, 1);
    const rows = await this.#query<Row>(
      'read',
      `SELECT m.* FROM ${this.#table} m ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY m.created_at DESC, m.seq DESC LIMIT ${Number(filter.limit ?? 100)} OFFSET ${Number(filter.offset ?? 0)}`,
      params,
    );
    return rows.map((row) => this.#memory(row));
  }

  async close(): Promise<void> {
    if (this.#ownPool) await this.#pool.end();
  }

  #memory(row: Row): Memory {
    return storedMemory(
      {
        id: row.id,
        kind: row.kind,
        text: row.text,
        tags: row.tags,
        ...(row.metadata ? { metadata: row.metadata } : {}),
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      },
      { where: this.#table, remove: `DELETE FROM ${this.#table} WHERE id = '${row.id}'` },
    );
  }
}

/** The version of `analyzeText` a row's `tsv` was built with; 0 is the raw text of the stores before it. */
const ANALYZER = 1;

/** What `tsv` indexes: the analysed text and tags (CJK segmented into words, the rest as written). */
function tsvText(text: string, tags: string[]): string {
  return analyzeText(`${text} ${tags.join(' ')}`);
}

/**
 * Migrates a table written before the analysed index: rows of plain ASCII are already indexed as
 * `analyzeText` would, so they are only marked; the others get their `tsv` rebuilt, in batches.
 */
async function analyzeOldRows(client: pg.PoolClient, table: string): Promise<void> {
  await client.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS analyzer SMALLINT NOT NULL DEFAULT 0`);
  await client.query(
    `UPDATE ${table} SET analyzer = ${ANALYZER} WHERE analyzer < ${ANALYZER} AND text !~ '[^\x01-\x7f]' AND array_to_string(tags, ' ') !~ '[^\x01-\x7f]'`,
  );
  for (;;) {
    const { rows } = await client.query<{ id: string; text: string; tags: string[] }>(
      `SELECT id, text, tags FROM ${table} WHERE analyzer < ${ANALYZER} LIMIT 500`,
    );
    if (!rows.length) return;
    await client.query(
      `UPDATE ${table} t SET tsv = to_tsvector('english', u.body), analyzer = ${ANALYZER}
       FROM unnest($1::text[], $2::text[]) AS u(id, body) WHERE t.id = u.id`,
      [rows.map((r) => r.id), rows.map((r) => tsvText(r.text, r.tags))],
    );
  }
}

/** SQL conditions (alias `m`) with numbered parameters from `first`: kinds (any of), tags (all of). */
function filterSql(filter: { kinds?: string[]; tags?: string[] }, first: number): [string[], unknown[]] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.kinds?.length) {
    params.push(filter.kinds);
    where.push(`m.kind = ANY($${first + params.length - 1}::text[])`);
  }
  if (filter.tags?.length) {
    params.push(filter.tags);
    where.push(`m.tags @> $${first + params.length - 1}::text[]`);
  }
  return [where, params];
}
