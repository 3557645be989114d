/**
 * The query process: a child Node process that owns the sandboxed DuckDB of one data session and runs its
 * queries, so that a query DuckDB cannot bound (a billion-character `repeat`, a huge list) costs this process,
 * never the agent's. It watches itself: over the memory limit or the time limit it says why and kills itself.
 * DuckDB runs on the thread pool, so this main thread stays free to watch while a query runs.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { formatBytes } from '../shared/format-bytes.js';
import { checkReadOnlySelect } from './check-read-only-select.js';
import type { DataSource } from './data-source.js';
import type { FromQueryProcess, QueryMessage, ToQueryProcess } from './duckdb-protocol.js';
import { openSandboxedDuckDB, sqlIdentifier } from './open-sandboxed-duckdb.js';
import type { QueryLimits } from './query-limits.js';

let db: DuckDBInstance | undefined;
let realRoot = '';
let limits: QueryLimits | undefined;
const running = new Map<number, DuckDBConnection>();

process.on('message', (message: ToQueryProcess) => void handle(message));
// The parent is gone (it exited or dropped the session): nothing is left to answer. SIGKILL rather than
// `process.exit`, whose destructors could wait on DuckDB threads still busy with a query.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

function send(message: FromQueryProcess, then?: () => void): void {
  process.send?.(message, undefined, {}, () => then?.());
}

async function handle(message: ToQueryProcess): Promise<void> {
  if (message.type === 'start') {
    try {
      realRoot = message.realRoot;
      limits = message.limits;
      db = await openSandboxedDuckDB(realRoot, limits);
      watchMemory(limits);
      send({ type: 'ready' });
    } catch (error) {
      stop(`The data engine could not start: ${errorText(error)}`);
    }
  } else if (message.type === 'cancel') {
    running.get(message.id)?.interrupt();
  } else {
    send(await runQuery(message));
  }
}

async function runQuery(query: QueryMessage): Promise<FromQueryProcess> {
  if (!db || !limits) return { type: 'failed', id: query.id, message: 'The data engine is not started.' };
  const { timeMs, maxCellChars } = limits;
  const connection = await db.connect();
  running.set(query.id, connection);
  // First an interrupt, which DuckDB honours between chunks; a single value that takes longer to build than
  // the grace second (a huge `repeat`) is stopped by ending the whole process.
  const interrupt = setTimeout(() => connection.interrupt(), timeMs);
  const kill = setTimeout(
    () => stop(`The query ran longer than the ${timeMs / 1000} s limit and was stopped.`),
    timeMs + 1000,
  );
  try {
    for (const [name, source] of query.views) await createView(connection, name, source);
    if (query.untrusted) {
      const check = await checkReadOnlySelect(connection, query.sql);
      if (!check.ok) return { type: 'failed', id: query.id, message: check.reason };
    }
    const reader = await connection.streamAndReadUntil(query.sql, query.maxRows + 1);
    const rows = (reader.getRowsJson() as unknown[][]).map((row) => row.map((value) => capCell(value, maxCellChars)));
    return {
      type: 'rows',
      id: query.id,
      columns: reader.columnNames(),
      rows: rows.slice(0, query.maxRows),
      more: rows.length > query.maxRows,
    };
  } catch (error) {
    return { type: 'failed', id: query.id, message: readableError(error, query.views, timeMs) };
  } finally {
    clearTimeout(interrupt);
    clearTimeout(kill);
    running.delete(query.id);
    connection.closeSync();
  }
}

async function createView(connection: DuckDBConnection, name: string, source: DataSource): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`"${name}" is not a valid table name.`);
  await connection.run(`CREATE OR REPLACE TEMP VIEW ${sqlIdentifier(name)} AS SELECT * FROM ${source.sql}`);
}

/** Polls this process's resident memory; over the limit, every running query fails with one clear reason. */
function watchMemory({ processMemoryBytes }: QueryLimits): void {
  setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > processMemoryBytes) {
      stop(
        `The query needed more than the ${formatBytes(processMemoryBytes)} memory limit and was stopped ` +
          '(e.g. a huge string, list or join); make it smaller, aggregate first, or add LIMIT.',
      );
    }
  }, 20).unref();
}

let stopping = false;

/** Tells the parent why, then ends at once: `process.exit` would run destructors under DuckDB's busy threads. */
function stop(message: string): void {
  if (stopping) return;
  stopping = true;
  const end = () => process.kill(process.pid, 'SIGKILL');
  send({ type: 'stopping', message }, end);
  setTimeout(end, 200).unref();
}

/** A text cell cut at `max` characters; lists and structs are cut as their JSON. */
function capCell(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}… [${value.length} chars]` : value;
  if (value !== null && typeof value === 'object') {
    const json = JSON.stringify(value);
    return json.length > max ? `${json.slice(0, max)}… [${json.length} chars]` : value;
  }
  return value;
}

/** DuckDB's messages with the root's absolute path removed, interrupts and CSV trouble named as such. */
function readableError(error: unknown, views: [string, DataSource][], timeMs: number): string {
  let message = errorText(error);
  if (/^INTERRUPT/i.test(message)) return `The query ran longer than the ${timeMs / 1000} s limit and was stopped.`;
  message = message.replaceAll(`${realRoot}/`, '').replace(/\n\s*\n/g, '\n');
  if (message.length > 1200) message = `${message.slice(0, 1200)}…`;
  if (/CSV Error|sniff|CSV file/i.test(message)) {
    const csv = views.filter(([, s]) => s.format === 'csv').map(([, s]) => s.relative);
    const hint = 'is it malformed? e.g. rows with a different number of fields, a stray quote, another delimiter';
    return `Could not read ${csv.join(', ') || 'the file'} as CSV (${hint}): ${message.slice(0, 300)}`;
  }
  return message;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
