import { z } from 'zod';
import { plural } from '../../../core/index.js';
import { defineTool, type Tool } from '../../tool.js';
import { type DataSession, QUERY_TIMEOUT_MS } from './data-session.js';
import { formatTable } from './format-table.js';

const DescribeDataInput = z.object({
  file: z.string().describe('Data file relative to the root: .csv, .tsv, .parquet, .json or .jsonl.'),
  preview: z.number().int().min(0).max(20).default(5).describe('Rows to show as a preview.'),
});

/** `describe_data`: a data file's columns and types, its row count and a preview. */
export function describeDataTool(
  session: DataSession,
  maxChars: number,
): Tool<z.infer<typeof DescribeDataInput>, string> {
  return defineTool({
    name: 'describe_data',
    description: 'Describe a data file (CSV, Parquet, JSON): its columns and types, row count, and the first rows.',
    input: DescribeDataInput,
    idempotent: true,
    timeoutMs: QUERY_TIMEOUT_MS,
    run: async (input, ctx) => {
      const views = { data: input.file };
      const run = (sql: string, maxRows: number) =>
        session.query({ views, sql, untrusted: false, maxRows, signal: ctx.signal });
      const schema = await run('SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM data)', 500);
      const count = await run('SELECT count(*) FROM data', 1);
      const preview = await run(`SELECT * FROM data LIMIT ${input.preview}`, input.preview);
      const columns = schema.rows.map(([name, type]) => `${name} (${type})`).join(', ');
      const lines = [
        `${input.file}: ${plural(Number(count.rows[0]?.[0] ?? 0), 'row')}, ${plural(schema.rows.length, 'column')}`,
        `Columns: ${columns}`,
      ];
      if (input.preview > 0)
        lines.push('Preview:', formatTable(preview.columns, preview.rows, { maxChars: maxChars / 2 }));
      return lines.join('\n');
    },
  });
}
