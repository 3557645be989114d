import { type ColumnInfo, isNumericType, isTemporalType } from '../data/describe-columns.js';
import { sqlIdentifier } from '../data/open-sandboxed-duckdb.js';

/** A bar, line or scatter chart of one column against another. */
export interface ColumnChart {
  type: 'bar' | 'line' | 'scatter';
  x: ColumnInfo;
  /** Not needed when counting rows. */
  y?: ColumnInfo;
  aggregate: 'sum' | 'avg' | 'count' | 'min' | 'max' | 'none';
  title?: string;
}

const MAX_POINTS = 5000;
const MAX_BARS = 200;

/** The SQL that feeds the chart, with the columns renamed `x` and `y` (so odd names need no escaping in the spec). */
export function columnChartSql(chart: ColumnChart): string {
  const x = sqlIdentifier(chart.x.name);
  const xExpr = isNumericType(chart.x.type) ? `CAST(${x} AS DOUBLE)` : `CAST(${x} AS VARCHAR)`;
  if (chart.aggregate === 'none') {
    if (!chart.y) throw new Error('"y" is required unless the aggregate is count.');
    return `SELECT ${xExpr} AS x, CAST(${sqlIdentifier(chart.y.name)} AS DOUBLE) AS y FROM data WHERE ${x} IS NOT NULL LIMIT ${MAX_POINTS}`;
  }
  const target = chart.aggregate === 'count' || !chart.y ? '*' : sqlIdentifier(chart.y.name);
  const order = chart.type === 'bar' ? 'y DESC, x' : 'x';
  return `SELECT ${xExpr} AS x, CAST(${chart.aggregate}(${target}) AS DOUBLE) AS y FROM data WHERE ${x} IS NOT NULL GROUP BY ALL ORDER BY ${order} LIMIT ${chart.type === 'bar' ? MAX_BARS : MAX_POINTS}`;
}

/** What the y axis shows, e.g. `sum(sales)` or `count`. */
export function yLabel(chart: ColumnChart): string {
  if (chart.aggregate === 'count') return 'count';
  const name = chart.y?.name ?? '';
  return chart.aggregate === 'none' ? name : `${chart.aggregate}(${name})`;
}

/** A Vega-Lite spec for the chart with its rows inline. */
export function columnChartSpec(chart: ColumnChart, rows: { x: unknown; y: unknown }[]): Record<string, unknown> {
  const temporal = isTemporalType(chart.x.type);
  const numeric = isNumericType(chart.x.type);
  const xType =
    chart.type === 'bar'
      ? temporal
        ? 'ordinal'
        : 'nominal'
      : temporal
        ? 'temporal'
        : numeric
          ? 'quantitative'
          : 'ordinal';
  const mark =
    chart.type === 'scatter'
      ? { type: 'point', filled: true }
      : chart.type === 'line'
        ? { type: 'line', point: true }
        : { type: 'bar' };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: chart.title ?? `${yLabel(chart)} by ${chart.x.name}`,
    width: 600,
    height: 360,
    data: { values: rows },
    mark,
    encoding: {
      x: { field: 'x', type: xType, title: chart.x.name, ...(chart.type === 'bar' ? { sort: null } : {}) },
      y: { field: 'y', type: 'quantitative', title: yLabel(chart) },
    },
  };
}
