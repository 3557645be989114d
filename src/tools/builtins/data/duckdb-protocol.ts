import type { DataSource } from './data-source.js';
import type { QueryLimits } from './query-limits.js';

/** The first message to the query process: where the data lives and the limits it enforces on itself. */
export interface StartMessage {
  type: 'start';
  realRoot: string;
  limits: QueryLimits;
}

/** One query: files exposed as views, the SQL, whether it came from the model (then it is checked). */
export interface QueryMessage {
  type: 'query';
  id: number;
  views: [string, DataSource][];
  sql: string;
  untrusted: boolean;
  maxRows: number;
}

/** Stop a running query (the caller aborted). */
export interface CancelMessage {
  type: 'cancel';
  id: number;
}

/** What the parent sends. */
export type ToQueryProcess = StartMessage | QueryMessage | CancelMessage;

/** What the query process answers. */
export type FromQueryProcess =
  | { type: 'ready' }
  | { type: 'rows'; id: number; columns: string[]; rows: unknown[][]; more: boolean }
  | { type: 'failed'; id: number; message: string }
  | { type: 'stopping'; message: string };
