import type { DataSession } from './data-session.js';

/** One column of a data file, with its DuckDB type. */
export interface ColumnInfo {
  name: string;
  type: string;
}

/** The columns of a data file inside the session's root. */
export async function describeColumns(session: DataSession, file: string, signal?: AbortSignal): Promise<ColumnInfo[]> {
  const result = await session.query({
    views: { data: file },
    sql: 'SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM data)',
    untrusted: false,
    maxRows: 2000,
    signal,
  });
  return result.rows.map(([name, type]) => ({ name: String(name), type: String(type) }));
}

/** Throws a message naming the real columns when one of `wanted` is not among them. */
export function requireColumns(file: string, columns: ColumnInfo[], wanted: (string | undefined)[]): void {
  const names = columns.map((column) => column.name);
  for (const name of wanted) {
    if (name !== undefined && !names.includes(name)) {
      throw new Error(`${file} has no column "${name}"; its columns are: ${names.join(', ')}.`);
    }
  }
}

/** True for DuckDB's numeric types. */
export function isNumericType(type: string): boolean {
  return /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL)/i.test(
    type,
  );
}

/** True for DuckDB's date and time types. */
export function isTemporalType(type: string): boolean {
  return /^(DATE|TIMESTAMP|TIME)/i.test(type);
}
