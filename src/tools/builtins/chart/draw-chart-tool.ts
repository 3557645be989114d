import { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import type { DataSession } from '../data/data-session.js';
import { describeColumns, requireColumns } from '../data/describe-columns.js';
import { type ColumnChart, columnChartSpec, columnChartSql } from './column-chart.js';
import { renderVegaLite } from './render-chart.js';
import { findExternalReference, safeVegaLoader } from './safe-vega-loader.js';
import { writeChartFile } from './write-chart-file.js';

const DrawChartInput = z.object({
  type: z.enum(['bar', 'line', 'scatter']).default('bar'),
  file: z.string().optional().describe('Data file relative to the root, e.g. "sales.csv".'),
  x: z.string().optional().describe('Column for the x axis (the categories of a bar chart).'),
  y: z.string().optional().describe('Numeric column for the y axis.'),
  aggregate: z
    .enum(['sum', 'avg', 'count', 'min', 'max', 'none'])
    .optional()
    .describe('How to combine y values that share an x. Default: sum for bar charts, none otherwise.'),
  title: z.string().max(200).optional(),
  name: z.string().max(80).optional().describe('Base name of the output files, e.g. "sales-by-product".'),
  spec: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('A full Vega-Lite spec instead of type/x/y; with "file", the file rows become its data.'),
});

type DrawChartInput = z.infer<typeof DrawChartInput>;

/** Where chart files go and how data reaches them. */
export interface DrawChartContext {
  session: DataSession;
  root: string;
  outDir: string;
  maxReadBytes: number;
}

/** `draw_chart`: renders a chart to SVG and PNG files and returns their paths (never the image itself). */
export function drawChartTool(context: DrawChartContext): Tool<DrawChartInput, string> {
  return defineTool({
    name: 'draw_chart',
    description:
      'Draw a bar, line or scatter chart of two columns of a data file (or from a Vega-Lite spec) ' +
      'and save it as SVG and PNG files. Returns the file paths.',
    input: DrawChartInput,
    examples: [{ type: 'bar', file: 'sales.csv', x: 'product', y: 'sales', aggregate: 'sum' }],
    timeoutMs: 60_000,
    run: async (input, ctx) => {
      const { spec, summary } = input.spec
        ? await givenSpec(input, context, ctx.signal)
        : await columnSpec(input, context, ctx.signal);
      const external = findExternalReference(spec);
      if (external)
        throw new Error(
          `The spec points outside ("${external.slice(0, 80)}"); use inline values or a file in the root.`,
        );
      const rendered = await renderVegaLite(spec, safeVegaLoader(context.root, context.maxReadBytes));
      const base = fileBase(input);
      const svg = await writeChartFile(context, `${base}.svg`, rendered.svg);
      const png = await writeChartFile(context, `${base}.png`, rendered.png);
      return `Saved ${summary} to ${svg} and ${png}.`;
    },
  });
}

async function columnSpec(input: DrawChartInput, context: DrawChartContext, signal: AbortSignal) {
  if (!input.file || !input.x) throw new Error('Give "file" and "x" (and "y"), or a Vega-Lite "spec".');
  const aggregate = input.aggregate ?? (input.type === 'bar' ? 'sum' : 'none');
  if (aggregate !== 'count' && !input.y)
    throw new Error(`"y" is required for a ${input.type} chart with ${aggregate}.`);
  const columns = await describeColumns(context.session, input.file, signal);
  requireColumns(input.file, columns, [input.x, input.y]);
  const pickColumn = (name?: string) => columns.find((column) => column.name === name);
  const x = pickColumn(input.x);
  if (!x) throw new Error(`No column "${input.x}".`);
  const chart: ColumnChart = { type: input.type, x, y: pickColumn(input.y), aggregate, title: input.title };
  const result = await context.session.query({
    views: { data: input.file },
    sql: columnChartSql(chart),
    untrusted: false,
    maxRows: 5000,
    signal,
  });
  const rows = result.rows.map(([xValue, yValue]) => ({ x: xValue, y: yValue === null ? null : Number(yValue) }));
  if (rows.length === 0) throw new Error(`${input.file} has no rows to chart.`);
  const spec = columnChartSpec(chart, rows);
  return {
    spec,
    summary: `a ${input.type} chart "${spec.title}" (${rows.length} ${input.type === 'bar' ? 'bars' : 'points'})`,
  };
}

async function givenSpec(input: DrawChartInput, context: DrawChartContext, signal: AbortSignal) {
  const spec = { ...(input.spec as Record<string, unknown>) };
  if (input.file) {
    const result = await context.session.query({
      views: { data: input.file },
      sql: 'SELECT * FROM data LIMIT 5000',
      untrusted: false,
      maxRows: 5000,
      signal,
    });
    spec.data = { values: result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]]))) };
  }
  return { spec, summary: 'the chart' };
}

function fileBase(input: DrawChartInput): string {
  const raw = input.name ?? [input.type, input.y ?? 'count', 'by', input.x ?? 'spec'].join('-');
  // Letters of every script kept: a chart of 销售额 by 月份 is bar-销售额-by-月份, not bar---by, which the
  // next chart of other Chinese columns overwrote.
  const safe = [
    ...raw
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  ]
    .slice(0, 80)
    .join('');
  return safe || 'chart';
}
