import { realpath } from 'node:fs/promises';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { checkReadOnlySelect } from './check-read-only-select.js';
import { type DataSource, dataSource } from './data-source.js';
import { openSandboxedDuckDB, sqlIdentifier } from './open-sandboxed-duckdb.js';

/** The executor aborts a data tool call after this long; the abort interrupts DuckDB. */
export const QUERY_TIMEOUT_MS = 60_000;

/** Rows read by one query, at most `maxRows` of them. */
export interface QueryRows {
  columns: string[];
  rows: unknown[][];
  /** More rows existed than were read. */
  more: boolean;
}

/** What one query needs: files exposed as views, the SQL, and whether it came from the model (then it is checked). */
export interface DataQuery {
  views: Record<string, string>;
  sql: string;
  untrusted: boolean;
  maxRows: number;
  signal?: AbortSignal;
}

/** A sandboxed DuckDB shared by the data and chart tools of one kit, opened on first use. */
export interface DataSession {
  root: string;
  query(query: DataQuery): Promise<QueryRows>;
}

/** Creates a session over `root`; each query gets its own connection, so views never leak between calls. */
export function createDataSession(root: string): DataSession {
  let instance: Promise<{ db: DuckDBInstance; realRoot: string }> | undefined;
  const open = () => {
    instance ??= realpath(root).then(async (realRoot) => ({ db: await openSandboxedDuckDB(realRoot), realRoot }));
    return instance;
  };
  return {
    root,
    async query(query) {
      const sources = await Promise.all(
        Object.entries(query.views).map(async ([name, file]) => [name, await dataSource(root, file)] as const),
      );
      const { db, realRoot } = await open();
      const connection = await db.connect();
      const onAbort = () => connection.interrupt();
      query.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // An abort before the query starts has no running query to interrupt, so check between phases.
        const stopIfAborted = () => {
          if (query.signal?.aborted) throw new Error('INTERRUPT: the query was stopped (aborted or timed out).');
        };
        stopIfAborted();
        for (const [name, source] of sources) await createView(connection, name, source);
        if (query.untrusted) {
          const check = await checkReadOnlySelect(connection, query.sql);
          if (!check.ok) throw new Error(check.reason);
        }
        stopIfAborted();
        const reader = await connection.streamAndReadUntil(query.sql, query.maxRows + 1);
        const rows = reader.getRowsJson() as unknown[][];
        return { columns: reader.columnNames(), rows: rows.slice(0, query.maxRows), more: rows.length > query.maxRows };
      } catch (error) {
        throw readableError(error, realRoot, sources);
      } finally {
        query.signal?.removeEventListener('abort', onAbort);
        connection.closeSync();
      }
    },
  };
}

async function createView(connection: DuckDBConnection, name: string, source: DataSource): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`"${name}" is not a valid table name.`);
  await connection.run(`CREATE OR REPLACE TEMP VIEW ${sqlIdentifier(name)} AS SELECT * FROM ${source.sql}`);
}

/** DuckDB's messages with the root's absolute path removed, and CSV trouble named as such. */
function readableError(error: unknown, realRoot: string, sources: (readonly [string, DataSource])[]): Error {
  let message = error instanceof Error ? error.message : String(error);
  message = message.replaceAll(`${realRoot}/`, '').replace(/\n\s*\n/g, '\n');
  if (message.length > 1200) message = `${message.slice(0, 1200)}…`;
  if (/CSV Error|sniff|CSV file/i.test(message)) {
    const csv = sources.filter(([, s]) => s.format === 'csv').map(([, s]) => s.relative);
    const hint = 'is it malformed? e.g. rows with a different number of fields, a stray quote, another delimiter';
    return new Error(`Could not read ${csv.join(', ') || 'the file'} as CSV (${hint}): ${message.slice(0, 300)}`);
  }
  return new Error(message);
}
