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

/** Settings that only take effect on a file that has no tables yet (SQLite keeps them in the file). */
export interface NewFileSettings {
  /** Page size in bytes (a power of two, 512 to 65536). */
  pageSize?: number;
  /** `incremental`: deleted rows' pages can be handed back to the OS with `PRAGMA incremental_vacuum`. */
  autoVacuum?: 'incremental';
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
export function openSqlite(location: SqliteLocation & NewFileSettings = {}): {
  db: Database.Database;
  file: string;
  busyTimeoutMs: number;
} {
  const file = databasePath(location);
  const busyTimeoutMs = Math.max(0, Math.floor(location.busyTimeoutMs ?? 5_000));
  return sqliteCall(file, 'open', () => {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const db = new (loadSqlite())(file, { timeout: busyTimeoutMs });
    try {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      if (location.pageSize) db.pragma(`page_size = ${Math.floor(location.pageSize)}`);
      if (location.autoVacuum) db.pragma(`auto_vacuum = ${location.autoVacuum}`);
      useWal(db, busyTimeoutMs);
      db.pragma('synchronous = NORMAL');
    } catch (error) {
      db.close();
      throw error;
    }
    return { db, file, busyTimeoutMs };
  });
}

/**
 * Opens the database (as `openSqlite`) and creates its tables with `createTables`, retried while another
 * process holds the lock; `action` names that step in a StoreError. The database is closed when it fails.
 */
export function openSqliteTables(
  location: SqliteLocation & NewFileSettings,
  action: string,
  createTables: (db: Database.Database) => void,
): { db: Database.Database; file: string } {
  const { db, file, busyTimeoutMs } = openSqlite(location);
  try {
    sqliteCall(file, action, () => retryBusy(() => createTables(db), busyTimeoutMs));
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, file };
}

/**
 * Puts the file in WAL mode unless it already is. SQLite can answer the switch with SQLITE_BUSY
 * without calling the busy handler while another connection switches the same file, so the switch
 * (and the read of the current mode) are retried with backoff until the busy timeout is spent.
 */
function useWal(db: Database.Database, busyTimeoutMs: number): void {
  const mode = retryBusy(() => db.pragma('journal_mode', { simple: true }), busyTimeoutMs);
  if (mode === 'wal' || mode === 'memory') return;
  retryBusy(() => db.pragma('journal_mode = WAL'), busyTimeoutMs);
}

/**
 * Runs a synchronous SQLite call, retrying it with exponential backoff (1 ms doubling to 50 ms) while
 * it fails with SQLITE_BUSY or SQLITE_LOCKED, for at most `timeoutMs`. For the statements SQLite may
 * refuse without waiting (journal mode switches, schema creation racing another process).
 */
export function retryBusy<T>(fn: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      const left = deadline - Date.now();
      if (!isBusy(error) || left <= 0) throw error;
      sleepSync(Math.min(2 ** attempt, 50, left));
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread: opening a store is synchronous, and this only runs while another process holds the lock. */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
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
  switch (typeof code === 'string' ? code.replace(/_(RECOVERY|SNAPSHOT|TIMEOUT|SHAREDCACHE|VTAB)$/, '') : code) {
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
