import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSalesAnalysis } from '../../../examples/sales-analysis/index.js';
import type { RunResult } from '../../../src/index.js';

const example = path.join(import.meta.dirname, '../../../examples/sales-analysis');
let root: string;
let result: RunResult;

/** Totals computed here, independently of DuckDB, so the test fails if the tools compute them wrong. */
async function expectedTotals(): Promise<[string, number][]> {
  const lines = (await readFile(path.join(example, 'sales.csv'), 'utf8')).trim().split('\n').slice(1);
  const totals = new Map<string, number>();
  for (const line of lines) {
    const [, product = '', , , sales = '0'] = line.split(',');
    totals.set(product, (totals.get(product) ?? 0) + Number(sales));
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tf-sales-'));
  await copyFile(path.join(example, 'sales.csv'), path.join(root, 'sales.csv'));
  result = await runSalesAnalysis({ root, outDir: path.join(root, 'charts') });
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the seeds data-analysis scenario (examples/sales-analysis)', () => {
  it('finishes with the best-selling product and its total in the answer', async () => {
    const [[product, total]] = (await expectedTotals()) as [[string, number]];
    expect(result.status).toBe('done');
    expect(result.output).toContain(`The product with the highest total sales is ${product} (${total})`);
  });

  it('runs describe_data, aggregate_data and draw_chart, all successfully, in that order', () => {
    const calls = result.steps.flatMap((step) => step.toolCalls);
    expect(calls.map((call) => call.name)).toEqual(['describe_data', 'aggregate_data', 'draw_chart']);
    expect(calls.every((call) => call.ok)).toBe(true);
    expect(calls[0]?.output).toContain('sales.csv: 30 rows, 5 columns');
  });

  it('reports every product total, highest first', async () => {
    const table = result.steps.flatMap((step) => step.toolCalls).find((c) => c.name === 'aggregate_data')?.output ?? '';
    const rows = table
      .split('\n')
      .slice(2)
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map(([product, total]) => [product, Number(total)])).toEqual(await expectedTotals());
  });

  it('draws the bar chart as SVG and PNG files and only names their paths', async () => {
    const svg = await readFile(path.join(root, 'charts', 'sales-by-product.svg'), 'utf8');
    for (const [product] of await expectedTotals()) expect(svg).toContain(product);
    expect((await stat(path.join(root, 'charts', 'sales-by-product.png'))).size).toBeGreaterThan(1000);
    expect(result.output).toContain('charts/sales-by-product.png');
    expect(JSON.stringify(result.steps)).not.toMatch(/base64|data:image/);
  });
});
