import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { errorMessage, ModelResponse, StoreError } from '../core/index.js';
import type { Model } from '../llm/index.js';
import { openSqlite, retryBusy } from '../memory/node.js';
import { type CacheStore, cachedModel } from './cached-model.js';

/**
 * A model-reply cache in one SQLite file (better-sqlite3). Entries never expire; delete the file to clear it.
 *
 * @example
 * const store = new SqliteCacheStore('~/.thinkflow/cache.sqlite');
 * const model = cachedModel(openaiCompatible({ model: 'gpt-4o-mini' }), { store });
 */
export class SqliteCacheStore implements CacheStore {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly getRow: Database.Statement<[string], { response: string }>;
  private readonly putRow: Database.Statement<[string, string, string, number]>;

  constructor(path: string) {
    this.path = path;
    try {
      const { db, busyTimeoutMs } = openSqlite({ file: path });
      this.db = db;
      retryBusy(
        () =>
          db.exec(
            'CREATE TABLE IF NOT EXISTS model_cache (key TEXT PRIMARY KEY, model TEXT NOT NULL, response TEXT NOT NULL, created_at INTEGER NOT NULL)',
          ),
        busyTimeoutMs,
      );
      this.getRow = this.db.prepare('SELECT response FROM model_cache WHERE key = ?');
      this.putRow = this.db.prepare(
        'INSERT OR REPLACE INTO model_cache (key, model, response, created_at) VALUES (?, ?, ?, ?)',
      );
    } catch (error) {
      throw new StoreError({
        message: `Cannot open the model cache at ${path}: ${errorMessage(error)}. Check the folder exists and is writable, or pass another --data-dir.`,
        cause: error,
      });
    }
  }

  get(key: string): ModelResponse | undefined {
    const row = this.getRow.get(key);
    if (!row) return undefined;
    const parsed = ModelResponse.safeParse(JSON.parse(row.response));
    // A row this version cannot read is a miss: the fresh reply overwrites it.
    return parsed.success ? parsed.data : undefined;
  }

  set(key: string, response: ModelResponse, modelId: string): void {
    this.putRow.run(key, modelId, JSON.stringify(response), Date.now());
  }

  /** Number of cached replies. */
  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM model_cache').get() as { n: number }).n;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * The CLI's `--cache`: `model` answered from `<dataDir>/cache.sqlite` when the same request was seen before.
 *
 * @example
 * const model = withCache(resolveModel(spec), options.dataDir ?? thinkflowHome());
 */
export function withCache(model: Model, dataDir: string): Model {
  return cachedModel(model, { store: new SqliteCacheStore(join(dataDir, 'cache.sqlite')) });
}
