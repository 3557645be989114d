import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset, parseDataset } from '../../src/eval/index.js';

describe('loadDataset', () => {
  it('reads JSONL rows, skipping blank lines, with ids by position', () => {
    const rows = parseDataset('{"input":"2+2","expected":4}\n\n{"id":"b","input":{"q":"x"},"metadata":{"tag":"t"}}\n');
    expect(rows).toEqual([
      { id: '1', input: '2+2', expected: 4 },
      { id: 'b', input: { q: 'x' }, metadata: { tag: 't' } },
    ]);
  });

  it('reads files that start with a byte-order mark (Excel\'s "CSV UTF-8", Notepad) as without it', () => {
    const bom = '\uFEFF';
    const csv = parseDataset(`${bom}id,input,expected\r\nq1,法国的首都是哪里？,巴黎\r\n`, 'cases.csv');
    expect(csv).toEqual([{ id: 'q1', input: '法国的首都是哪里？', expected: '巴黎' }]);
    expect(parseDataset(`${bom}{"input":"a","expected":"a"}\r\n`, 'c.jsonl')).toEqual([
      { id: '1', input: 'a', expected: 'a' },
    ]);
    expect(parseDataset(`${bom}- input: a\r\n  expected: a\r\n`, 'c.yaml')).toEqual([
      { id: '1', input: 'a', expected: 'a' },
    ]);
  });

  it('names the line of a bad JSONL row', () => {
    expect(() => parseDataset('{"input":"a"}\n{"input": nope}\n', 'cases.jsonl')).toThrow(
      /cases\.jsonl line 2: not valid JSON/,
    );
    expect(() => parseDataset('{"input":"a"}\n\n{"expected":"b"}\n', 'cases.jsonl')).toThrow(
      /cases\.jsonl line 3: input: every row needs an "input"/,
    );
    expect(() => parseDataset('{"id":"x","input":"a"}\n{"id":"x","input":"b"}', 'c.jsonl')).toThrow(
      /c\.jsonl line 2: a second row with the id "x"/,
    );
  });

  it('reads CSV with quoted cells, line breaks in quotes, JSON cells and other columns as metadata', () => {
    const csv = 'id,input,expected,topic\nq1,"Say ""hi""",hi,greeting\nq2,"two\nlines","[1,2]",\n';
    expect(parseDataset(csv, 'd.csv')).toEqual([
      { id: 'q1', input: 'Say "hi"', expected: 'hi', metadata: { topic: 'greeting' } },
      { id: 'q2', input: 'two\nlines', expected: [1, 2] },
    ]);
  });

  it('names the line of a bad CSV row, counting line breaks inside quotes', () => {
    expect(() => parseDataset('input,expected\n"a\nb",x\nc\n', 'd.csv')).toThrow(
      /d\.csv line 4: 1 cells, but the header has 2/,
    );
    expect(() => parseDataset('question\nx\n', 'd.csv')).toThrow(/d\.csv line 1: the header has no "input" column/);
    expect(() => parseDataset('input,expected\na,{oops\n', 'd.csv')).toThrow(/d\.csv line 2: a cell starting with/);
  });

  it('reads YAML lists (or { rows }) and names the line of a bad row', () => {
    const yaml = 'rows:\n  - input: hello\n    expected: hi\n  - input: bye\n';
    expect(parseDataset(yaml, 'd.yaml')).toEqual([
      { id: '1', input: 'hello', expected: 'hi' },
      { id: '2', input: 'bye' },
    ]);
    expect(() => parseDataset('- input: a\n- expected: b\n', 'd.yml')).toThrow(/d\.yml line 2: input/);
    expect(() => parseDataset('- input: [a\n', 'd.yml')).toThrow(/d\.yml line \d+:/);
  });

  it('reads a file by its extension and names a missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataset-'));
    writeFileSync(join(dir, 'x.csv'), 'input\nhello\n');
    expect(loadDataset(join(dir, 'x.csv'))).toEqual([{ id: '1', input: 'hello' }]);
    expect(() => loadDataset(join(dir, 'none.jsonl'))).toThrow(/Cannot read the dataset/);
  });
});
