import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { errorMessage, requireDependency, StoreError } from '../core/index.js';
import { thinkflowHome } from '../llm/index.js';

/** Where a SQLite store lives: a file, or `thinkflow.db` under a data dir (default `$THINKFLOW_HOME` or `~/.thinkflow`). */
export interface SqliteLocation {
  /** Folder holding `thinkflow.db`. Default `$THINKFLOW_HOME`, else `~/.thinkflow` (the CLI's `--data-dir`). */
  dataDir?: string;
  /** The database file itself (or `:memory:`); wins over `dataDir`. */
  file?: string;
  /** How long a write waits for another process's lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
}

/**
 * better-sqlite3's Database class, loaded with the first database rather than at import: an app that
 * never opens one never loads it, and bundlers leave the native package to node_modules.
 */
export function loadSqlite(): typeof Database {
  return requireDependency<typeof Database>('better-sqlite3');
}

/** The database file a location points to. */
export function databasePath(location: SqliteLocation = {}): string {
  return location.file ?? join(location.dataDir ?? thinkflowHome(), 'thinkflow.db');
}

/**
 * Opens (creating if needed) a SQLite database in WAL mode with a busy timeout, so readers never
 * wait for writers and two processes can write to one file. Failures become a StoreError naming the file.
 */
export function openSqlite(location: SqliteLocation = {}): { db: Database.Database; file: string } {
  const file = databasePath(location);
  const busyTimeoutMs = location.busyTimeoutMs ?? 5_000;
  return sqliteCall(file, 'open', () => {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new (loadSqlite())(file, { timeout: busyTimeoutMs });
    try {
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    } catch (error) {
      db.close();
      throw error;
    }
    return { db, file };
  });
}

/** Runs a SQLite operation, turning its failures into a StoreError that names the file and the fix. */
export function sqliteCall<T>(file: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw sqliteError(file, action, error);
  }
}

function sqliteError(file: string, action: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown }).code;
  const detail = errorMessage(error);
  let message: string;
  switch (code) {
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      message =
        `${file} is not a readable SQLite database (${detail}). thinkflow changed and deleted nothing. ` +
        `Move it aside (mv "${file}" "${file}.bak") to start a fresh one, or pass --data-dir to use another folder.`;
      break;
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      message =
        `${file} is locked by another process (${action}: ${detail}). Nothing was lost; ` +
        'retry when that process is done, or raise busyTimeoutMs.';
      break;
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      message = `Cannot ${action} ${file} (${detail}): make sure its folder is writable, or pass --data-dir.`;
      break;
    default:
      message = `SQLite could not ${action} ${file}: ${detail}`;
  }
  return new StoreError({ message, cause: error });
}
