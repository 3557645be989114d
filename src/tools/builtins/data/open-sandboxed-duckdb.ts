import type { DuckDBInstance } from '@duckdb/node-api';
import { importOptional } from '../../../core/index.js';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from './query-limits.js';
import { STRING_GROWTH_FENCES } from './string-growth-fences.js';

/**
 * An in-memory DuckDB that can read files only below `realRoot` and cannot be reconfigured:
 * external access is limited to `allowed_directories`, extensions are never installed or loaded,
 * spilling to a temp folder is off, and the configuration is locked last. So even a table function
 * built from a string (`query('…')`, `read_text(x)`) cannot reach a file outside the root.
 * The SQL check in `checkReadOnlySelect` is the first fence; this is the second. One thread, a low
 * `memory_limit` and a shallow expression depth keep one query's own footprint small; what DuckDB does not
 * count (a single huge string or list) is bounded by the query process's watchdog (`query-process-main.ts`).
 */
export async function openSandboxedDuckDB(
  realRoot: string,
  limits: Pick<QueryLimits, 'duckdbMemoryBytes'> = DEFAULT_QUERY_LIMITS,
): Promise<DuckDBInstance> {
  // DuckDB loads on the first data call, not at import: its native library takes a while to load.
  const { DuckDBInstance } = await importOptional<typeof import('@duckdb/node-api')>('data', '@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: '1',
  });
  const connection = await instance.connect();
  try {
    const dir = `${realRoot.replace(/\/+$/, '')}/`;
    await connection.run("SET temp_directory = ''");
    await connection.run(`SET allowed_directories = [${sqlString(dir)}]`);
    await connection.run('SET enable_external_access = false');
    await connection.run(`SET memory_limit = '${Math.max(16, Math.floor(limits.duckdbMemoryBytes / 1024 / 1024))}MiB'`);
    await connection.run('SET max_expression_depth = 250');
    for (const fence of STRING_GROWTH_FENCES) await connection.run(fence);
    await connection.run('SET lock_configuration = true');
  } finally {
    connection.closeSync();
  }
  return instance;
}

/** A SQL string literal: single quotes doubled. Used only for paths this module resolved itself. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A SQL identifier: double quotes doubled. */
export function sqlIdentifier(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}
