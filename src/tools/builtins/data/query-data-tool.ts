import { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';
import { type DataSession, QUERY_TIMEOUT_MS } from './data-session.js';
import { formatTable } from './format-table.js';

const QueryDataInput = z.object({
  file: z.string().describe('Data file relative to the root; the query sees it as the table "data".'),
  sql: z.string().describe('One read-only SELECT, e.g. SELECT product, sum(sales) AS total FROM data GROUP BY product'),
  tables: z
    .record(z.string(), z.string())
    .optional()
    .describe('More files to query, by table name, e.g. {"customers": "customers.csv"} (for joins).'),
  max_rows: z.number().int().min(1).max(500).default(50).describe('Rows to return at most.'),
});

/** `query_data`: one read-only SELECT over data files (DuckDB SQL), answered as a compact table. */
export function queryDataTool(session: DataSession, maxChars: number): Tool<z.infer<typeof QueryDataInput>, string> {
  return defineTool({
    name: 'query_data',
    description:
      'Run one read-only SQL SELECT (DuckDB dialect) over a data file, which is the table "data". ' +
      'Writing, attaching, settings and several statements are refused.',
    input: QueryDataInput,
    idempotent: true,
    timeoutMs: QUERY_TIMEOUT_MS,
    run: async (input, ctx) => {
      const views = { ...input.tables, data: input.file };
      const result = await session.query({
        views,
        sql: input.sql,
        untrusted: true,
        maxRows: input.max_rows,
        signal: ctx.signal,
      });
      if (result.rows.length === 0) return `No rows. Columns: ${result.columns.join(', ')}`;
      return formatTable(result.columns, result.rows, { maxChars, moreRows: result.more });
    },
  });
}
