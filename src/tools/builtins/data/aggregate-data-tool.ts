import { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import { type DataSession, QUERY_TIMEOUT_MS } from './data-session.js';
import { describeColumns, requireColumns } from './describe-columns.js';
import { formatTable } from './format-table.js';
import { sqlIdentifier } from './open-sandboxed-duckdb.js';

const AggregateDataInput = z.object({
  file: z.string().describe('Data file relative to the root.'),
  group_by: z.string().describe('Column to group by, e.g. "product".'),
  aggregate: z.enum(['sum', 'avg', 'mean', 'count', 'min', 'max']).default('sum'),
  column: z.string().optional().describe('Column to aggregate, e.g. "sales" (not needed for count).'),
  order: z.enum(['desc', 'asc']).default('desc').describe('Sort by the aggregate value.'),
  limit: z.number().int().min(1).max(500).default(50),
});

type AggregateDataInput = z.infer<typeof AggregateDataInput>;

/** The SQL an aggregate_data call runs; identifiers are checked against the file's columns first, then quoted. */
export function aggregateSql(input: AggregateDataInput): string {
  const fn = input.aggregate === 'mean' ? 'avg' : input.aggregate;
  const group = sqlIdentifier(input.group_by);
  const target = input.column === undefined ? '*' : sqlIdentifier(input.column);
  const alias = sqlIdentifier(`${fn}_${input.column ?? 'rows'}`);
  const order = input.order === 'asc' ? 'ASC' : 'DESC';
  return `SELECT ${group}, ${fn}(${target}) AS ${alias} FROM data GROUP BY ${group} ORDER BY 2 ${order}, 1 LIMIT ${input.limit}`;
}

/** `aggregate_data`: group a file's rows by a column and sum/avg/count/min/max another (the seeds' query_data). */
export function aggregateDataTool(session: DataSession, maxChars: number): Tool<AggregateDataInput, string> {
  return defineTool({
    name: 'aggregate_data',
    description:
      'Group a data file by one column and aggregate another (sum, avg, count, min, max), sorted by the result. ' +
      'E.g. total sales per product: {"file":"sales.csv","group_by":"product","aggregate":"sum","column":"sales"}.',
    input: AggregateDataInput,
    idempotent: true,
    timeoutMs: QUERY_TIMEOUT_MS,
    run: async (input, ctx) => {
      if (input.aggregate !== 'count' && input.column === undefined) {
        throw new Error(`"column" is required for ${input.aggregate}: name the numeric column to aggregate.`);
      }
      const views = { data: input.file };
      requireColumns(input.file, await describeColumns(session, input.file, ctx.signal), [
        input.group_by,
        input.column,
      ]);
      const result = await session.query({
        views,
        sql: aggregateSql(input),
        untrusted: false,
        maxRows: input.limit,
        signal: ctx.signal,
      });
      return formatTable(result.columns, result.rows, { maxChars });
    },
  });
}
