import type Database from 'better-sqlite3';

/**
 * Files up to this size made before incremental vacuum are converted when the store opens. A
 * conversion is one VACUUM: it rewrites the whole file (bench/run-storage.bench.ts measures about
 * 0.4 s for 64 MB and 1.8 s for 326 MB here), so a larger file is left to `thinkflow runs vacuum`, run when convenient.
 */
export const CONVERT_AT_OPEN_MAX_BYTES = 64 * 1024 * 1024;

/** What opening or `thinkflow runs vacuum` did to the file. */
export type VacuumOutcome =
  /** Already incremental: nothing to do at open. */
  | 'incremental'
  /** Rewritten with incremental vacuum (its page size kept: a WAL file cannot change it). */
  | 'converted'
  /** Too large to convert at open: pruned pages are reused, never given back, until `thinkflow runs vacuum`. */
  | 'too_large'
  /** Another process had the file open in a transaction: converted on a later open. */
  | 'busy';

/**
 * Converts a file made before the store used incremental auto-vacuum, which SQLite only applies
 * through a VACUUM. With `maxBytes` a larger file is left as it is.
 */
export function useIncrementalVacuum(db: Database.Database, options: { maxBytes?: number } = {}): VacuumOutcome {
  if ((db.pragma('auto_vacuum', { simple: true }) as number) === 2) return 'incremental';
  const bytes =
    (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  if (options.maxBytes !== undefined && bytes > options.maxBytes) return 'too_large';
  return vacuum(db);
}

/** Rewrites the file: free pages go back to the OS, and an old file becomes incremental. */
export function vacuum(db: Database.Database): VacuumOutcome {
  try {
    db.pragma('auto_vacuum = incremental');
    db.exec('VACUUM');
    return 'converted';
  } catch (error) {
    // VACUUM needs the file to itself for a moment; a reader elsewhere makes it wait or fail busy.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))) return 'busy';
    throw error;
  }
}
