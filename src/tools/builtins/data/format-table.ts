/** Options for `formatTable`. */
export interface FormatTableOptions {
  /** Characters per cell before it is cut with `…`. Default 60. */
  maxCellChars?: number;
  /** Characters for the whole table; rows past it are dropped with a note. Default 8000. */
  maxChars?: number;
  /** Rows that exist beyond those given (for the "more rows" note). */
  moreRows?: boolean;
}

/**
 * Renders rows as a compact, aligned, pipe-separated text table that models read well.
 * Cells are cut to `maxCellChars`, and the table to `maxChars`, always with a note saying what was left out.
 *
 * @example
 * formatTable(['product', 'total'], [['A', 15], ['B', 20]]);
 * // product | total
 * // --------+------
 * // A       | 15
 * // B       | 20
 */
export function formatTable(columns: string[], rows: unknown[][], options: FormatTableOptions = {}): string {
  const maxCell = options.maxCellChars ?? 60;
  const maxChars = options.maxChars ?? 8000;
  const cells = rows.map((row) => row.map((value) => cell(value, maxCell)));
  const header = columns.map((name) => cell(name, maxCell));
  const widths = header.map((name, i) => Math.max(name.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join(' | ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('-+-')];
  let length = out[0].length + out[1].length + 2;
  let shown = 0;
  for (const row of cells) {
    const text = line(row);
    if (length + text.length + 1 > maxChars) break;
    out.push(text);
    length += text.length + 1;
    shown++;
  }
  if (shown < rows.length) out.push(`[${rows.length - shown} more rows not shown: output limit]`);
  else if (options.moreRows)
    out.push(`[more rows not shown: showing the first ${rows.length}; use LIMIT or aggregate]`);
  return out.join('\n');
}

function cell(value: unknown, max: number): string {
  let text: string;
  if (value === null || value === undefined) text = 'NULL';
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
