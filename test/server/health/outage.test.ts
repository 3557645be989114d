import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createLogThrottle,
  DependencyUnavailableError,
  isDependencyUnavailable,
} from '../../../src/server/index.js';
import { TEST_PG } from '../pg-fixtures.js';
import { freePort } from '../private-services.js';

describe('isDependencyUnavailable', () => {
  it('is true for what pg and ioredis throw when nothing listens, false for errors of the work', async () => {
    const port = await freePort();
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/x` });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDependencyUnavailable(refused)).toBe(true);

    const redis = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    const lost = await redis.ping().then(
      () => undefined,
      (error: unknown) => error,
    );
    redis.disconnect();
    expect(isDependencyUnavailable(lost)).toBe(true);

    const ok = new pg.Client({ connectionString: TEST_PG });
    await ok.connect();
    const syntax = await ok.query('SELEC 1').then(
      () => undefined,
      (error: unknown) => error,
    );
    await ok.end();
    expect(isDependencyUnavailable(syntax)).toBe(false);
    expect(isDependencyUnavailable(new Error('ENOENT: no such file'))).toBe(false);
    expect(isDependencyUnavailable(new DependencyUnavailableError({ dependency: 'redis', message: 'x' }))).toBe(true);
    expect(isDependencyUnavailable(new Error('wrapped', { cause: refused }))).toBe(true);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially from the base, stays between half and all of it, and never passes the cap', () => {
    expect(backoffDelay(0, { baseMs: 100 }, () => 0)).toBe(50);
    expect(backoffDelay(0, { baseMs: 100 }, () => 1)).toBe(100);
    expect(backoffDelay(3, { baseMs: 100 }, () => 1)).toBe(800);
    expect(backoffDelay(50, { baseMs: 100, maxMs: 5000 }, () => 1)).toBe(5000);
    expect(backoffDelay(50, { baseMs: 100, maxMs: 5000 }, () => 0)).toBe(2500);
  });
});

describe('createLogThrottle', () => {
  it('logs a repeated line once, then once per interval with how many more came', async () => {
    const lines: string[] = [];
    const log = createLogThrottle((line) => lines.push(line), 50);
    for (let i = 0; i < 1000; i++) log('PostgreSQL is unreachable');
    log('another error');
    expect(lines).toEqual(['PostgreSQL is unreachable', 'another error']);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(lines).toEqual([
      'PostgreSQL is unreachable',
      'another error',
      'PostgreSQL is unreachable (999 more in the last 50 ms)',
    ]);
    log.close();
  });
});
