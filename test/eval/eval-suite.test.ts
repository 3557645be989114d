import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, parseSuite } from '../../src/eval/eval-suite.js';

const GOOD = `
name: arithmetic
model: scripted:replies.json
tools: [calculator]
cases:
  - id: add
    input: What is 2+2?
    checks:
      - contains: "4"
      - numeric: 4
        tolerance: 0.01
      - regex: "\\\\b4\\\\b"
        flags: i
      - maxSteps: 3
      - calledTool: calculator
      - predicate: ./is-four.mjs
      - status: done
  - id: hello
    input: Say hello
    model: scripted:hello.json
    checks:
      - exact: Hello!
        ignoreCase: true
`;

describe('parseSuite', () => {
  it('reads suite defaults, cases and every kind of check', () => {
    const suite = parseSuite(GOOD);
    expect(suite.name).toBe('arithmetic');
    expect(suite.tools).toEqual(['calculator']);
    expect(suite.cases.map((c) => c.id)).toEqual(['add', 'hello']);
    expect(suite.cases[0].checks).toHaveLength(7);
    expect(suite.cases[0].checks[2]).toEqual({ regex: '\\b4\\b', flags: 'i' });
    expect(suite.cases[1]).toMatchObject({
      model: 'scripted:hello.json',
      checks: [{ exact: 'Hello!', ignoreCase: true }],
    });
    // The same file saved with a byte-order mark and Windows line ends.
    expect(parseSuite(`\uFEFF${GOOD.replace(/\n/g, '\r\n')}`)).toEqual(suite);
  });

  it('names an unknown check by its path', () => {
    const bad = 'cases:\n  - id: a\n    input: x\n    checks:\n      - contains: "4"\n      - equals: "4"\n';
    expect(() => parseSuite(bad, 'suite.yaml')).toThrow(
      /suite\.yaml is not a valid eval suite:\n {2}cases\.0\.checks\.1: a check must be exactly one of/,
    );
  });

  it('rejects a case without checks, duplicate ids and bad YAML', () => {
    expect(() => parseSuite('cases:\n  - id: a\n    input: x\n    checks: []\n')).toThrow(/cases\.0\.checks/);
    expect(() =>
      parseSuite(
        'cases:\n  - {id: a, input: x, checks: [{contains: y}]}\n  - {id: a, input: z, checks: [{contains: y}]}\n',
      ),
    ).toThrow(/two cases have the id "a"/);
    expect(() => parseSuite('cases: [')).toThrow(/not valid YAML/);
  });

  it('loadSuite gives the suite folder as baseDir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkflow-suite-'));
    try {
      writeFileSync(join(dir, 'suite.yaml'), GOOD);
      const { suite, baseDir } = loadSuite(join(dir, 'suite.yaml'));
      expect(suite.cases).toHaveLength(2);
      expect(baseDir).toBe(dir);
      expect(() => loadSuite(join(dir, 'missing.yaml'))).toThrow(/Cannot read the eval suite/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
