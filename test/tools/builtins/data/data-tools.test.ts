import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataTools } from '../../../../src/tools/builtins/data/data-tools.js';
import { pick, runTool } from '../run-tool.js';

let base: string;
let root: string;
let tools: ReturnType<typeof dataTools>;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'tf-data-'));
  root = path.join(base, 'root');
  await mkdir(root);
  await mkdir(path.join(base, 'root-evil'));
  await writeFile(
    path.join(root, 'sales.csv'),
    'product,region,sales\nA,north,10\nB,north,20\nA,south,15\nC,south,5\n',
  );
  await writeFile(path.join(root, 'scores.tsv'), 'name\tscore\nann\t3\nbob\t4\n');
  await writeFile(path.join(root, 'items.json'), '[{"id":1,"name":"x"},{"id":2,"name":"y"}]');
  await writeFile(path.join(root, 'big.csv'), `n\n${Array.from({ length: 5000 }, (_, i) => i).join('\n')}\n`);
  await writeFile(path.join(base, 'root-evil', 'secret.csv'), 'secret\n42\n');
  await writeFile(path.join(base, 'outside.csv'), 'secret\n7\n');
  await symlink(path.join(base, 'outside.csv'), path.join(root, 'link-out.csv'));
  tools = dataTools({ root });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const describeData = (input: unknown) => runTool(pick(tools, 'describe_data'), input) as Promise<string>;
const queryData = (input: unknown) => runTool(pick(tools, 'query_data'), input) as Promise<string>;
const aggregateData = (input: unknown) => runTool(pick(tools, 'aggregate_data'), input) as Promise<string>;

describe('describe_data', () => {
  it('gives columns, types, row count and a preview', async () => {
    const text = await describeData({ file: 'sales.csv', preview: 2 });
    expect(text).toContain('sales.csv: 4 rows, 3 columns');
    expect(text).toContain('Columns: product (VARCHAR), region (VARCHAR), sales (BIGINT)');
    expect(text).toContain(
      'product | region | sales\n--------+--------+------\nA       | north  | 10\nB       | north  | 20',
    );
  });

  it('reads TSV files with tabs as the delimiter', async () => {
    expect(await describeData({ file: 'scores.tsv' })).toContain('Columns: name (VARCHAR), score (BIGINT)');
  });

  it('reads JSON files too', async () => {
    expect(await describeData({ file: 'items.json' })).toContain('items.json: 2 rows, 2 columns');
  });

  it('refuses files outside the root and unknown formats', async () => {
    await expect(describeData({ file: '../outside.csv' })).rejects.toThrow(/\.\./);
    await expect(describeData({ file: '/etc/passwd' })).rejects.toThrow(/outside the root/);
    await expect(describeData({ file: 'link-out.csv' })).rejects.toThrow(/outside the root/);
    await expect(describeData({ file: 'missing.csv' })).rejects.toThrow(/does not exist/);
  });
});

describe('aggregate_data (the seeds query_data)', () => {
  it('sums a column per group, highest first', async () => {
    const text = await aggregateData({ file: 'sales.csv', group_by: 'product', aggregate: 'sum', column: 'sales' });
    expect(text).toBe('product | sum_sales\n--------+----------\nA       | 25\nB       | 20\nC       | 5');
  });

  it('supports count, mean, min and ascending order with a limit', async () => {
    expect(await aggregateData({ file: 'sales.csv', group_by: 'region', aggregate: 'count' })).toContain('north  | 2');
    const avg = await aggregateData({ file: 'sales.csv', group_by: 'region', aggregate: 'mean', column: 'sales' });
    expect(avg).toContain('avg_sales');
    const min = await aggregateData({
      file: 'sales.csv',
      group_by: 'product',
      aggregate: 'min',
      column: 'sales',
      order: 'asc',
      limit: 1,
    });
    expect(min.split('\n')).toEqual(['product | min_sales', '--------+----------', 'C       | 5']);
  });

  it('names the real columns when asked for a missing one, and never interpolates names raw', async () => {
    await expect(aggregateData({ file: 'sales.csv', group_by: 'prodct', column: 'sales' })).rejects.toThrow(
      /no column "prodct"; its columns are: product, region, sales/,
    );
    await expect(
      aggregateData({ file: 'sales.csv', group_by: 'product"); COPY data TO \'x.csv', column: 'sales' }),
    ).rejects.toThrow(/no column/);
    await expect(aggregateData({ file: 'sales.csv', group_by: 'product' })).rejects.toThrow(/"column" is required/);
  });
});

describe('query_data', () => {
  it('runs a read-only SELECT over the file as table "data"', async () => {
    const text = await queryData({
      file: 'sales.csv',
      sql: 'SELECT product, sum(sales) AS total FROM data GROUP BY product ORDER BY total DESC LIMIT 1',
    });
    expect(text).toBe('product | total\n--------+------\nA       | 25');
  });

  it('accepts WITH … SELECT, FROM-first queries and joins over extra tables', async () => {
    expect(
      await queryData({ file: 'sales.csv', sql: 'WITH t AS (SELECT sales FROM data) SELECT max(sales) m FROM t' }),
    ).toContain('20');
    expect(await queryData({ file: 'sales.csv', sql: 'FROM data SELECT count(*) AS n' })).toContain('4');
    expect(await queryData({ file: 'sales.csv', sql: '-- total\nSELECT count(*) AS n FROM data;  ' })).toContain('4');
    const joined = await queryData({
      file: 'sales.csv',
      tables: { items: 'items.json' },
      sql: 'SELECT count(*) AS n FROM data, items',
    });
    expect(joined).toContain('8');
  });

  it('caps huge results in rows and characters, saying so', async () => {
    const rows = await queryData({ file: 'big.csv', sql: 'SELECT n FROM data', max_rows: 20 });
    expect(rows.split('\n')).toHaveLength(23);
    expect(rows).toMatch(/more rows not shown/);
    const small = dataTools({ root, maxOutputChars: 300 });
    const wide = (await runTool(pick(small, 'query_data'), {
      file: 'big.csv',
      sql: "SELECT n, repeat('x', 50) AS pad FROM data",
      max_rows: 500,
    })) as string;
    expect(wide.length).toBeLessThan(400);
    expect(wide).toMatch(/more rows not shown: output limit/);
  });

  it('reports an empty result with its columns', async () => {
    expect(await queryData({ file: 'sales.csv', sql: 'SELECT * FROM data WHERE sales > 100' })).toBe(
      'No rows. Columns: product, region, sales',
    );
  });
});
