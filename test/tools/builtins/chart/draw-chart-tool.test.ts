import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartTools } from '../../../../src/tools/builtins/chart/chart-tools.js';
import { pick, runTool, testContext } from '../run-tool.js';

let base: string;
let root: string;
let draw: ReturnType<typeof chartTools>[number];

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'tf-chart-'));
  root = path.join(base, 'root');
  await mkdir(root);
  await writeFile(
    path.join(root, 'sales.csv'),
    'product,month,sales\nA,2024-01-01,10\nB,2024-01-01,20\nA,2024-02-01,15\nC,2024-02-01,5\n',
  );
  await writeFile(path.join(root, 'points.json'), '[{"a":1,"b":2},{"a":2,"b":4},{"a":3,"b":5}]');
  await writeFile(path.join(base, 'outside.csv'), 'a,b\n1,2\n');
  draw = pick(chartTools({ root }), 'draw_chart');
}, 30_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('draw_chart from columns', () => {
  it('draws a bar chart of summed sales per product to SVG and PNG, returning paths only', async () => {
    const text = (await runTool(draw, { type: 'bar', file: 'sales.csv', x: 'product', y: 'sales' })) as string;
    expect(text).toBe(
      'Saved a bar chart "sum(sales) by product" (3 bars) to charts/bar-sales-by-product.svg and charts/bar-sales-by-product.png.',
    );
    const svg = await readFile(path.join(root, 'charts', 'bar-sales-by-product.svg'), 'utf8');
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('sum(sales) by product');
    expect(svg.match(/role-mark marks.*?<\/g>/s)?.[0] ?? svg).toContain('path');
    const png = await readFile(path.join(root, 'charts', 'bar-sales-by-product.png'));
    expect([...png.subarray(0, 4)]).toEqual(PNG_MAGIC);
    expect(text).not.toMatch(/base64|data:/);
  });

  it('names the files of charts over Chinese columns by those columns (once both were bar---by.svg, the second overwriting the first)', async () => {
    await writeFile(path.join(root, '销售.csv'), '产品,月份,销售额,利润\n甲,1月,10,3\n乙,1月,20,5\n甲,2月,15,4\n');
    const sales = (await runTool(draw, { type: 'bar', file: '销售.csv', x: '产品', y: '销售额' })) as string;
    const profit = (await runTool(draw, { type: 'bar', file: '销售.csv', x: '产品', y: '利润' })) as string;
    expect(sales).toContain('charts/bar-销售额-by-产品.svg');
    expect(profit).toContain('charts/bar-利润-by-产品.svg');
    const named = (await runTool(draw, {
      type: 'bar',
      file: '销售.csv',
      x: '月份',
      y: '销售额',
      name: '月度 销售额',
    })) as string;
    expect(named).toContain('charts/月度-销售额.svg');
    expect(await readFile(path.join(root, 'charts', 'bar-销售额-by-产品.svg'), 'utf8')).toContain(
      'sum(销售额) by 产品',
    );
  });

  it('draws line and scatter charts, with a custom name and title', async () => {
    const line = (await runTool(draw, {
      type: 'line',
      file: 'sales.csv',
      x: 'month',
      y: 'sales',
      aggregate: 'sum',
      name: 'Monthly Sales!',
      title: 'Sales per month',
    })) as string;
    expect(line).toContain('charts/monthly-sales.svg');
    expect(await readFile(path.join(root, 'charts', 'monthly-sales.svg'), 'utf8')).toContain('Sales per month');
    const scatter = (await runTool(draw, { type: 'scatter', file: 'points.json', x: 'a', y: 'b' })) as string;
    expect(scatter).toContain('(3 points)');
  });

  it('names the real columns when a column is wrong, and refuses files outside the root', async () => {
    await expect(runTool(draw, { file: 'sales.csv', x: 'prod', y: 'sales' })).rejects.toThrow(
      /no column "prod"; its columns are: product, month, sales/,
    );
    await expect(runTool(draw, { file: '../outside.csv', x: 'a', y: 'b' })).rejects.toThrow(/\.\./);
    await expect(runTool(draw, { file: 'sales.csv' })).rejects.toThrow(/Give "file" and "x"/);
  });
});

describe('draw_chart from a Vega-Lite spec', () => {
  const spec = (data: unknown) => ({
    data,
    mark: 'bar',
    encoding: { x: { field: 'k', type: 'nominal' }, y: { field: 'v', type: 'quantitative' } },
  });

  it('renders inline values', async () => {
    const text = await runTool(draw, {
      name: 'inline',
      spec: spec({
        values: [
          { k: 'a', v: 1 },
          { k: 'b', v: 2 },
        ],
      }),
    });
    expect(text).toContain('charts/inline.png');
  });

  it('interprets spec expressions without compiling them to JavaScript', async () => {
    const withExpressions = {
      data: {
        values: [
          { k: 'a', v: 1 },
          { k: 'b', v: 2 },
          { k: 'c', v: 3 },
        ],
      },
      transform: [{ calculate: 'datum.v * 10', as: 'w' }, { filter: 'datum.w > 10' }],
      mark: 'bar',
      encoding: { x: { field: 'k', type: 'nominal' }, y: { field: 'w', type: 'quantitative' } },
    };
    // Validate first: zod has its own (schema-derived) fast path that uses Function; this test is about vega.
    const parsed = draw.parse({ name: 'expr', spec: withExpressions });
    if (!parsed.ok) throw new Error('invalid input');
    const original = globalThis.Function;
    const compiled: string[] = [];
    globalThis.Function = new Proxy(original, {
      apply: (_target, _this, args: string[]) => {
        compiled.push(args.join(' '));
        throw new Error('Function() called');
      },
      construct: (_target, args: string[]) => {
        compiled.push(args.join(' '));
        throw new Error('new Function() called');
      },
    });
    try {
      expect(await draw.run(parsed.value, testContext())).toContain('charts/expr.svg');
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toEqual([]);
    const svg = await readFile(path.join(root, 'charts', 'expr.svg'), 'utf8');
    expect(svg.match(/role-mark marks[\s\S]*?<\/g>/)?.[0].match(/<path/g)).toHaveLength(2);
  });

  it('renders a spec over a file in the root', async () => {
    const text = await runTool(draw, {
      name: 'spec-file',
      file: 'sales.csv',
      spec: { mark: 'point', encoding: { x: { field: 'product' }, y: { field: 'sales', type: 'quantitative' } } },
    });
    expect(text).toContain('charts/spec-file.svg');
  });

  it('loads a relative data.url only from inside the root', async () => {
    const byUrl = {
      data: { url: 'points.json' },
      mark: 'point',
      encoding: { x: { field: 'a', type: 'quantitative' } },
    };
    expect(await runTool(draw, { name: 'by-url', spec: byUrl })).toContain('by-url');
    const svg = await readFile(path.join(root, 'charts', 'by-url.svg'), 'utf8');
    expect(svg.match(/<path[^>]*transform="translate/g)?.length).toBe(3);
    await expect(runTool(draw, { name: 'x', spec: spec({ url: '../outside.csv' }) })).rejects.toThrow(/\.\./);
  });

  it.each([
    ['a remote data.url', { url: 'http://127.0.0.1:1/data.json' }],
    ['a data: URL', { url: 'data:application/json,[{"k":"a","v":1}]' }],
    ['a file: URL', { url: 'file:///etc/passwd' }],
    ['a protocol-relative URL', { url: '//example.com/data.json' }],
  ])('refuses %s', async (_name, data) => {
    await expect(runTool(draw, { name: 'refused', spec: spec(data) })).rejects.toThrow(/points outside|refused/);
  });

  it('refuses image marks pointing at URLs, and reports invalid specs', async () => {
    const image = {
      data: { values: [{ u: 'x' }] },
      mark: { type: 'image', url: 'https://example.com/a.png' },
    };
    await expect(runTool(draw, { name: 'img', spec: image })).rejects.toThrow(/points outside/);
    await expect(runTool(draw, { name: 'bad', spec: { mark: 'nope' } })).rejects.toThrow(/Invalid Vega-Lite spec|nope/);
    const files = await readdir(path.join(root, 'charts'));
    expect(files.some((f) => f.startsWith('refused') || f.startsWith('img'))).toBe(false);
  });
});

describe('draw_chart writes only inside the root', () => {
  it('refuses to write through a link moved into the chart folder, or a chart folder that is a link out', async () => {
    const around = await mkdtemp(path.join(os.tmpdir(), 'tf-chart-links-'));
    const inner = path.join(around, 'root');
    await mkdir(path.join(inner, 'charts'), { recursive: true });
    await mkdir(path.join(around, 'elsewhere'));
    await writeFile(path.join(inner, 'sales.csv'), 'product,sales\nA,10\nB,20\n');
    await writeFile(path.join(around, 'victim.svg'), 'precious');
    try {
      // A link with the very name the chart will get, pointing at a file outside.
      await symlink(path.join(around, 'victim.svg'), path.join(inner, 'charts', 'bar-sales-by-product.svg'));
      const tool = pick(chartTools({ root: inner }), 'draw_chart');
      await expect(runTool(tool, { type: 'bar', file: 'sales.csv', x: 'product', y: 'sales' })).rejects.toThrow(
        /outside the root/,
      );
      expect(await readFile(path.join(around, 'victim.svg'), 'utf8')).toBe('precious');
      // The chart folder itself replaced by a link to a folder outside.
      await rm(path.join(inner, 'charts'), { recursive: true });
      await symlink(path.join(around, 'elsewhere'), path.join(inner, 'charts'));
      await expect(runTool(tool, { type: 'bar', file: 'sales.csv', x: 'product', y: 'sales' })).rejects.toThrow(
        /outside the root/,
      );
      expect(await readdir(path.join(around, 'elsewhere'))).toEqual([]);
    } finally {
      await rm(around, { recursive: true, force: true });
    }
  }, 60_000);
});
