import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { z } from 'zod';
import { ConfigError, errorMessage, requireDependency, withoutBom } from '../core/index.js';

/** One row of a dataset: what the task gets, what a scorer may compare with, and anything else. */
export const DatasetRow = z.object({
  /** Names the case in reports (default: its 1-based position). */
  id: z.string().min(1).optional(),
  input: z.unknown().refine((v) => v !== undefined && v !== null, { message: 'every row needs an "input"' }),
  expected: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type DatasetRow = z.infer<typeof DatasetRow>;

/** A case of an experiment: a row with its id settled. */
export interface EvalItem<Input = unknown, Expected = unknown> {
  id: string;
  input: Input;
  expected?: Expected;
  metadata?: Record<string, unknown>;
}

/**
 * Reads a dataset file by its extension: `.jsonl` (one JSON row a line), `.csv` (a header row; `input`,
 * `expected` and `id` columns, every other column into `metadata`; cells starting with `{` or `[` read as
 * JSON) or `.yaml`/`.yml`/`.json` (a list of rows, or `{ rows: [...] }`). A bad row throws a
 * `ConfigError` naming the file and the line.
 *
 * @example
 * const data = loadDataset('evals/support.jsonl');
 * await runExperiment({ name: 'support', data, task, scorers: [contains()] });
 */
export function loadDataset(path: string): EvalItem[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError({ message: `Cannot read the dataset ${path}: ${errorMessage(error)}` });
  }
  return parseDataset(text, path);
}

/** Parses dataset text; the format comes from `source`'s extension (default JSONL). */
export function parseDataset(text: string, source = 'dataset.jsonl'): EvalItem[] {
  text = withoutBom(text);
  const ext = extname(source).toLowerCase();
  const rows =
    ext === '.csv'
      ? csvRows(text, source)
      : ext === '.yaml' || ext === '.yml' || ext === '.json'
        ? yamlRows(text, source)
        : jsonlRows(text, source);
  const ids = new Set<string>();
  return rows.map(({ value, line }, index) => {
    const parsed = DatasetRow.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; ');
      throw rowError(source, line, problems);
    }
    const id = parsed.data.id ?? String(index + 1);
    if (ids.has(id)) throw rowError(source, line, `a second row with the id "${id}"; ids must be unique`);
    ids.add(id);
    return { ...parsed.data, id };
  });
}

function rowError(source: string, line: number, what: string): ConfigError {
  return new ConfigError({ message: `${source} line ${line}: ${what}.` });
}

type Located = { value: unknown; line: number };

function jsonlRows(text: string, source: string): Located[] {
  const rows: Located[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (!raw.trim()) continue;
    try {
      rows.push({ value: JSON.parse(raw), line: index + 1 });
    } catch (error) {
      throw rowError(source, index + 1, `not valid JSON (${errorMessage(error)})`);
    }
  }
  return rows;
}

function yamlRows(text: string, source: string): Located[] {
  const yaml = requireDependency<typeof import('yaml')>('yaml');
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: counter });
  if (doc.errors.length) {
    const first = doc.errors[0];
    throw rowError(source, counter.linePos(first.pos[0]).line, first.message.split('\n')[0]);
  }
  const root = doc.contents;
  const list = yaml.isMap(root) ? root.get('rows', true) : root;
  if (!yaml.isSeq(list)) throw rowError(source, 1, 'expected a list of rows (or { rows: [...] })');
  return list.items.map((item) => ({
    value: yaml.isNode(item) ? item.toJSON() : item,
    line: yaml.isNode(item) && item.range ? counter.linePos(item.range[0]).line : 1,
  }));
}

function csvRows(text: string, source: string): Located[] {
  const records = readCsv(text, source);
  if (!records.length) return [];
  const [header, ...body] = records;
  if (!header.cells.includes('input')) throw rowError(source, header.line, 'the header has no "input" column');
  return body
    .filter((r) => r.cells.some((c) => c !== ''))
    .map(({ cells, line }) => {
      if (cells.length !== header.cells.length) {
        throw rowError(source, line, `${cells.length} cells, but the header has ${header.cells.length}`);
      }
      const row: Record<string, unknown> = {};
      const metadata: Record<string, unknown> = {};
      for (const [i, name] of header.cells.entries()) {
        const value = cell(cells[i], source, line);
        if (name === 'input' || name === 'expected' || name === 'id') row[name] = value;
        else if (cells[i] !== '') metadata[name] = value;
      }
      if (row.expected === '') delete row.expected;
      if (Object.keys(metadata).length) row.metadata = metadata;
      return { value: row, line };
    });
}

function cell(text: string, source: string, line: number): unknown {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw rowError(source, line, `a cell starting with { or [ must be JSON (${errorMessage(error)})`);
  }
}

/** RFC 4180 records: quoted cells may hold commas, `""` and line breaks. Each record keeps its first line. */
function readCsv(text: string, source: string): { cells: string[]; line: number }[] {
  const records: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let current = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') current += text[++i];
      else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        current += ch;
      }
    } else if (ch === '"' && current === '') quoted = true;
    else if (ch === ',') {
      cells.push(current);
      current = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      cells.push(current);
      records.push({ cells, line: start });
      cells = [];
      current = '';
      start = ++line;
    } else current += ch;
  }
  if (quoted) throw rowError(source, start, 'a quoted cell is never closed');
  if (current !== '' || cells.length) records.push({ cells: [...cells, current], line: start });
  return records.filter((r) => !(r.cells.length === 1 && r.cells[0] === ''));
}
