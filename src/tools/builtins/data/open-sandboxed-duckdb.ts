import type { DuckDBInstance } from '@duckdb/node-api';
import { importOptional } from '../../../core/index.js';

/**
 * An in-memory DuckDB that can read files only below `realRoot` and cannot be reconfigured:
 * external access is limited to `allowed_directories`, extensions are never installed or loaded,
 * spilling to a temp folder is off, and the configuration is locked last. So even a table function
 * built from a string (`query('…')`, `read_text(x)`) cannot reach a file outside the root.
 * The SQL check in `checkReadOnlySelect` is the first fence; this is the second.
 */
export async function openSandboxedDuckDB(realRoot: string): Promise<DuckDBInstance> {
  // DuckDB loads on the first data call, not at import: its native library takes a while to load.
  const { DuckDBInstance } = await importOptional<typeof import('@duckdb/node-api')>('data', '@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    threads: '2',
  });
  const connection = await instance.connect();
  try {
    const dir = `${realRoot.replace(/\/+$/, '')}/`;
    await connection.run("SET temp_directory = ''");
    await connection.run(`SET allowed_directories = [${sqlString(dir)}]`);
    await connection.run('SET enable_external_access = false');
    await connection.run("SET memory_limit = '1GB'");
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
