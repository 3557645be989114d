import type pg from 'pg';
import { requireOptional } from '../core/index.js';

/** A PostgreSQL schema name the stores accept: lower-case letters, digits and `_`, as an unquoted identifier. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Where a store keeps its tables: the server, the schema (default `thinkflow`) and the pool's size. */
export interface SchemaPoolOptions {
  connectionString: string;
  schema?: string;
  /** Pool size. */
  max: number;
  /** Milliseconds to wait for a connection (pg's default waits forever). */
  connectTimeoutMs?: number;
}

/**
 * The pool of a store that keeps its tables in one schema: the schema's name checked (it is written into
 * statements), `pg` loaded on first use (an optional peer), and an idle client's lost connection kept from
 * crashing the process (the next query reconnects).
 */
export function openSchemaPool(options: SchemaPoolOptions): { pool: pg.Pool; schema: string } {
  const schema = options.schema ?? 'thinkflow';
  if (!SCHEMA_NAME.test(schema)) {
    throw new TypeError(`Schema name "${schema}" must be lower-case letters, digits or "_".`);
  }
  const { Pool } = requireOptional<typeof pg>('postgres', 'pg');
  const pool = new Pool({
    connectionString: options.connectionString,
    max: options.max,
    ...(options.connectTimeoutMs === undefined ? {} : { connectionTimeoutMillis: options.connectTimeoutMs }),
  });
  pool.on('error', () => {});
  return { pool, schema };
}
