import { mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataTools } from '../../../../src/tools/builtins/data/data-tools.js';
import { openSandboxedDuckDB } from '../../../../src/tools/builtins/data/open-sandboxed-duckdb.js';
import { pick, runTool } from '../run-tool.js';

let base: string;
let root: string;
let db: DuckDBInstance;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tf-sandbox-')));
  root = path.join(base, 'root');
  await mkdir(root);
  await mkdir(path.join(base, 'root-evil'));
  await writeFile(path.join(root, 'sales.csv'), 'product,sales\nA,10\nB,20\n');
  await writeFile(path.join(root, 'ragged.csv'), 'a,b\n1,2\n3,4\n5,6,7\n');
  await writeFile(path.join(root, 'binary.csv'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02, 0x0a, 0xc3, 0x28]));
  await writeFile(path.join(base, 'root-evil', 'secret.csv'), 'secret\n42\n');
  await symlink('/etc/hostname', path.join(root, 'host-link.csv'));
  db = await openSandboxedDuckDB(root);
});

afterAll(async () => {
  db.closeSync();
  await rm(base, { recursive: true, force: true });
});

const query = (sql: string) => runTool(pick(dataTools({ root }), 'query_data'), { file: 'sales.csv', sql });

describe('query_data refuses everything but one read-only SELECT', () => {
  it.each([
    [`COPY data TO '${'out.csv'}'`, /COPY is not allowed/],
    ["EXPORT DATABASE 'dump'", /EXPORT is not allowed/],
    [`ATTACH 'x.db' AS x`, /ATTACH is not allowed/],
    ['INSTALL httpfs', /INSTALL is not allowed/],
    ['LOAD httpfs', /LOAD is not allowed/],
    ['PRAGMA database_list', /PRAGMA is not allowed/],
    ['SET enable_external_access = true', /SET is not allowed/],
    ['CALL pragma_version()', /CALL is not allowed/],
    ['EXPLAIN ANALYZE SELECT * FROM data', /EXPLAIN is not allowed/],
    ['CREATE TABLE t AS SELECT 1', /CREATE is not allowed/],
    ['SELECT 1; SELECT 2', /Only one statement/],
    [`SELECT 1; COPY data TO 'x.csv'`, /Only one statement/],
    ['  -- comment\n /* block */ DROP VIEW data', /DROP is not allowed/],
    ['WITH t AS (SELECT 1) INSERT INTO data SELECT * FROM t', /would change something/],
    ['(SELECT 1) UNION ALL (SELECT 2); DELETE FROM data', /Only one statement/],
    ['UPDATE data SET sales = 0', /UPDATE is not allowed/],
    ['', /empty/],
    ['GRANT ALL', /must start with SELECT/],
  ])('refuses %s', async (sql, reason) => {
    await expect(query(sql)).rejects.toThrow(reason);
  });

  it('wrote nothing while refusing', async () => {
    await expect(stat(path.join(root, 'out.csv'))).rejects.toThrow();
    await expect(stat(path.join(root, 'x.db'))).rejects.toThrow();
  });
});

describe('query_data cannot read outside the root, however the path is built', () => {
  it.each([
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_text('/etc/hostname')",
    "SELECT * FROM read_csv('/et' || 'c/passwd')",
    "SELECT * FROM query('SELECT * FROM read_text(''/etc/hostname'')')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_blob('/etc/hostname')",
    "SELECT * FROM read_csv('https://example.invalid/x.csv')",
  ])('refuses %s', async (sql) => {
    await expect(query(sql)).rejects.toThrow(/Permission Error|disabled/);
  });

  it('does not treat a bare quoted path as a file to read', async () => {
    await expect(query("SELECT * FROM '/etc/passwd'")).rejects.toThrow(/does not exist|Permission Error/);
  });

  it('refuses a sibling folder that shares the root name prefix, and a symbolic link out', async () => {
    await expect(query(`SELECT * FROM read_csv('${base}/root-evil/secret.csv')`)).rejects.toThrow(/Permission Error/);
    await expect(query(`SELECT * FROM read_csv('${root}/../root-evil/secret.csv')`)).rejects.toThrow(
      /Permission Error/,
    );
    await expect(query(`SELECT * FROM read_text('${root}/host-link.csv')`)).rejects.toThrow(/Permission Error/);
  });

  it('still reads inside the root by absolute path', async () => {
    expect(await query(`SELECT count(*) AS n FROM read_csv('${root}/sales.csv')`)).toContain('2');
  });
});

describe('the DuckDB instance itself is locked down (the second fence, without the SQL check)', () => {
  const raw = async (sql: string) => {
    const connection = await db.connect();
    try {
      return (await connection.runAndReadAll(sql)).getRowsJson();
    } finally {
      connection.closeSync();
    }
  };

  it('refuses files outside the allowed directory', async () => {
    await expect(raw("SELECT * FROM read_csv('/etc/passwd')")).rejects.toThrow(/Permission Error/);
    await expect(raw(`SELECT * FROM read_csv('${base}/root-evil/secret.csv')`)).rejects.toThrow(/Permission Error/);
  });

  it('cannot be reconfigured or extended', async () => {
    await expect(raw('SET enable_external_access = true')).rejects.toThrow(/locked/);
    await expect(raw("SET allowed_directories = ['/']")).rejects.toThrow(/locked/);
    await expect(raw('SET lock_configuration = false')).rejects.toThrow(/locked/);
    await expect(raw('LOAD httpfs')).rejects.toThrow(/disabled|Permission/);
    expect(await raw("SELECT current_setting('allowed_directories')")).toEqual([[[`${root}/`]]]);
  });
});

describe('malformed files', () => {
  it('names a ragged CSV clearly', async () => {
    const ragged = runTool(pick(dataTools({ root }), 'describe_data'), { file: 'ragged.csv' });
    await expect(ragged).rejects.toThrow(/Could not read ragged\.csv as CSV/);
  });

  it('names a binary file posing as CSV clearly', async () => {
    const binary = runTool(pick(dataTools({ root }), 'describe_data'), { file: 'binary.csv' });
    await expect(binary).rejects.toThrow(/Could not read binary\.csv as CSV|Invalid|UTF-8/);
  });

  it('names a missing column in the SQL', async () => {
    await expect(query('SELECT nope FROM data')).rejects.toThrow(/nope/);
  });
});

describe('runaway queries', () => {
  it('stops a long query when the call is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const tool = pick(dataTools({ root }), 'query_data');
    const long = runTool(
      tool,
      { file: 'sales.csv', sql: 'SELECT count(*) FROM range(1000000000000)' },
      controller.signal,
    );
    await expect(long).rejects.toThrow(/INTERRUPT|interrupt/i);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads only the rows it returns from a huge result', async () => {
    const text = await query('SELECT * FROM range(1000000000000)');
    expect(text).toMatch(/more rows not shown/);
  });
});
