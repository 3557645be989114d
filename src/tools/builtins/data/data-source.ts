import { stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveInRootOrThrow } from '../files/resolve-in-root.js';
import { sqlString } from './open-sandboxed-duckdb.js';

// An explicit delimiter makes DuckDB refuse ragged rows instead of silently re-sniffing them as one column.
const READERS: Record<string, string> = {
  '.csv': "read_csv(PATH, delim = ',', skip = 0)",
  '.tsv': "read_csv(PATH, delim = '\\t', skip = 0)",
  '.txt': 'read_csv(PATH)',
  '.parquet': 'read_parquet(PATH)',
  '.json': 'read_json_auto(PATH)',
  '.jsonl': 'read_json_auto(PATH)',
  '.ndjson': 'read_json_auto(PATH)',
};

/** A data file inside the root, as a DuckDB table expression (`read_csv('/abs/path')`). */
export interface DataSource {
  relative: string;
  sql: string;
  format: 'csv' | 'parquet' | 'json';
}

/** Resolves a file inside the root (refusing escapes) and picks its DuckDB reader from the extension. */
export async function dataSource(root: string, file: string): Promise<DataSource> {
  const resolved = await resolveInRootOrThrow(root, file);
  if (!resolved.exists) throw new Error(`"${file}" does not exist; list_files shows what is there.`);
  if (!(await stat(resolved.path)).isFile()) throw new Error(`"${file}" is not a regular file.`);
  const extension = path.extname(resolved.path).toLowerCase();
  const reader = READERS[extension];
  if (!reader) {
    throw new Error(`"${file}" is not a data file; supported: ${Object.keys(READERS).join(', ')}.`);
  }
  const format = reader.startsWith('read_parquet') ? 'parquet' : reader.startsWith('read_csv') ? 'csv' : 'json';
  return { relative: resolved.relative, sql: reader.replace('PATH', sqlString(resolved.path)), format };
}
