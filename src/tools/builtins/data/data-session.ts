import { realpath } from 'node:fs/promises';
import type { BuiltinOptions } from '../builtin-options.js';
import { dataSource } from './data-source.js';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from './query-limits.js';
import { type QueryProcess, type QueryRows, queryProcess } from './query-process.js';

export type { QueryRows } from './query-process.js';

/** The executor aborts a data tool call after this long; the query process stops a query sooner (see `QueryLimits`). */
export const QUERY_TIMEOUT_MS = 60_000;

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
  /** Ends the query process now, for every session sharing it (it also ends with this process, and restarts on the next query). */
  close(): void;
}

/**
 * One query process per root and limits, shared by every session over them (kits built again for each
 * run, the chart and data kits together), so a process start (a second or two) is paid once.
 */
const processes = new Map<string, QueryProcess>();

function sharedQueryProcess(realRoot: string, limits: QueryLimits): QueryProcess {
  const key = JSON.stringify([realRoot, limits]);
  let process = processes.get(key);
  if (!process) {
    process = queryProcess(realRoot, limits);
    processes.set(key, process);
  }
  return process;
}

/** The query limits the built-in options set (`dataTimeoutMs`, `dataMemoryBytes`); the rest keep their defaults. */
export function dataQueryLimits(options: BuiltinOptions): Partial<QueryLimits> {
  const limits: Partial<QueryLimits> = {};
  if (options.dataTimeoutMs !== undefined) limits.timeMs = options.dataTimeoutMs;
  if (options.dataMemoryBytes !== undefined) {
    limits.processMemoryBytes = options.dataMemoryBytes;
    // DuckDB's own pool gets half: the rest is Node, DuckDB itself, and the values it builds outside its pool.
    limits.duckdbMemoryBytes = Math.floor(options.dataMemoryBytes / 2);
  }
  return limits;
}

/**
 * Creates a session over `root`. Its queries run in a child process that holds the sandboxed DuckDB and
 * is stopped when a query goes over `limits` (memory or time), so no query can take the agent's process
 * down with it. Each query gets its own connection, so views never leak between calls.
 */
export function createDataSession(root: string, limits: Partial<QueryLimits> = {}): DataSession {
  const resolved: QueryLimits = { ...DEFAULT_QUERY_LIMITS, ...limits };
  let engine: Promise<QueryProcess> | undefined;
  const open = () => {
    engine ??= realpath(root).then((realRoot) => sharedQueryProcess(realRoot, resolved));
    return engine;
  };
  return {
    root,
    async query(query) {
      // Files are resolved (and refused) here, before the query process sees a path.
      const views = await Promise.all(
        Object.entries(query.views).map(async ([name, file]) => [name, await dataSource(root, file)] as const),
      );
      const process = await open();
      return process.query(
        {
          views: views.map(([name, source]) => [name, source]),
          sql: query.sql,
          untrusted: query.untrusted,
          maxRows: query.maxRows,
        },
        query.signal,
      );
    },
    close() {
      void engine?.then((process) => process.close());
    },
  };
}
