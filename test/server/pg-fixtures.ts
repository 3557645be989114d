import { randomUUID } from 'node:crypto';

/** The local PostgreSQL this machine runs (trust auth, database `test`). */
export const TEST_PG = process.env.THINKFLOW_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The local Redis. */
export const TEST_REDIS = process.env.THINKFLOW_TEST_REDIS ?? 'redis://127.0.0.1:6379';

/** A schema (or queue name) no other test run uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
