/** East Asian wide and full-width characters (CJK, kana, hangul, full-width forms): two columns each in a terminal. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

/** The columns `text` takes in a terminal: a wide character two, any other one. */
export function columnsOf(text: string): number {
  let columns = 0;
  for (const char of text) columns += WIDE.test(char) ? 2 : 1;
  return columns;
}

/**
 * A terminal table's lines: each cell padded to its column's width, two spaces apart, and a rule under the
 * header. Widths are counted in terminal columns, so a column of Chinese case ids lines up.
 */
export function alignColumns(header: string[], rows: string[][]): { header: string; rule: string; rows: string[] } {
  const widths = header.map((h, i) => Math.max(columnsOf(h), ...rows.map((r) => columnsOf(r[i]))));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell + ' '.repeat(Math.max(0, widths[i] - columnsOf(cell))))
      .join('  ')
      .trimEnd();
  return { header: line(header), rule: widths.map((w) => '─'.repeat(w)).join('  '), rows: rows.map(line) };
}
