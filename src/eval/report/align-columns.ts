/** A terminal table's lines: each cell padded to its column's width, two spaces apart, and a rule under the header. */
export function alignColumns(header: string[], rows: string[][]): { header: string; rule: string; rows: string[] } {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return { header: line(header), rule: widths.map((w) => '─'.repeat(w)).join('  '), rows: rows.map(line) };
}
