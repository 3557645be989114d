import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EvalCase, EvalCheck } from '../../src/eval/eval-suite.js';
import { lastNumber, runChecks } from '../../src/eval/run-checks.js';
import { makeResult } from './make-result.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'even.mjs'), 'export default (output) => Number(output) % 2 === 0 || "odd: " + output;\n');
writeFileSync(
  join(dir, 'named.mjs'),
  'export function check(output, result, testCase) { return result.steps.length === 1 && testCase.id === "t"; }\n',
);
writeFileSync(join(dir, 'throws.mjs'), 'export default () => { throw new Error("boom"); };\n');
writeFileSync(join(dir, 'nothing.mjs'), 'export const x = 1;\n');

async function check(c: EvalCheck, output: string, extra: Parameters<typeof makeResult>[0] = { output }) {
  const testCase: EvalCase = { id: 't', input: 'q', checks: [c] };
  const [result] = await runChecks(testCase, makeResult({ ...extra, output }), { baseDir: dir });
  return result;
}

describe('runChecks', () => {
  it('exact compares trimmed text, optionally ignoring case', async () => {
    expect((await check({ exact: '4' }, ' 4\n')).pass).toBe(true);
    expect((await check({ exact: 'Hello' }, 'hello')).pass).toBe(false);
    expect((await check({ exact: 'Hello', ignoreCase: true }, 'hello')).pass).toBe(true);
  });

  it('contains and regex look inside the output', async () => {
    expect((await check({ contains: '42' }, 'The answer is 42.')).pass).toBe(true);
    const miss = await check({ contains: '43' }, 'The answer is 42.');
    expect(miss).toEqual({ check: 'contains "43"', pass: false, message: 'output was "The answer is 42."' });
    expect((await check({ regex: '^the answer', flags: 'i' }, 'The answer is 42.')).pass).toBe(true);
    expect(await check({ regex: '(' }, 'x')).toMatchObject({
      pass: false,
      message: expect.stringMatching(/bad regex/),
    });
  });

  it('numeric reads the last number and allows the tolerance', async () => {
    expect((await check({ numeric: 3.14, tolerance: 0.01 }, 'Pi is about 3.1416')).pass).toBe(true);
    expect((await check({ numeric: 3.14 }, 'Pi is about 3.1416')).pass).toBe(false);
    expect((await check({ numeric: 1234.5 }, 'It costs 1,234.5 dollars')).pass).toBe(true);
    expect(await check({ numeric: 4 }, 'four')).toMatchObject({ pass: false, message: 'no number in "four"' });
    expect(lastNumber('2 + 2 = 4')).toBe(4);
    expect(lastNumber('-1.5e3')).toBe(-1500);
    // Full-width digits, point and minus, as Chinese text writes them; a full-width comma ends a clause.
    expect(lastNumber('答案是４２')).toBe(42);
    expect(lastNumber('价格为￥１２．５元')).toBe(12.5);
    expect(lastNumber('２＋２＝４')).toBe(4);
    expect(lastNumber('气温是－５度')).toBe(-5);
    expect(lastNumber('温度 −3.5 °C')).toBe(-3.5);
    expect(lastNumber('第1，共３４５页')).toBe(345);
  });

  it('maxSteps, calledTool and status look at the run', async () => {
    expect((await check({ maxSteps: 2 }, 'x', { output: 'x', steps: 2 })).pass).toBe(true);
    expect(await check({ maxSteps: 2 }, 'x', { output: 'x', steps: 3 })).toMatchObject({
      pass: false,
      message: 'took 3 steps',
    });
    expect((await check({ calledTool: 'calculator' }, 'x', { output: 'x', tools: ['calculator'] })).pass).toBe(true);
    expect(await check({ calledTool: 'calculator' }, 'x', { output: 'x', tools: ['search'] })).toMatchObject({
      pass: false,
      message: 'called search',
    });
    expect(await check({ status: 'done' }, 'x', { output: 'x', status: 'max_steps' })).toMatchObject({
      pass: false,
      message: 'status was max_steps',
    });
  });

  it('predicate imports a user function (default or named check) and uses its verdict', async () => {
    expect((await check({ predicate: 'even.mjs' }, '8')).pass).toBe(true);
    expect(await check({ predicate: './even.mjs' }, '7')).toMatchObject({ pass: false, message: 'odd: 7' });
    expect((await check({ predicate: join(dir, 'named.mjs') }, 'x', { output: 'x', steps: 1 })).pass).toBe(true);
    expect(await check({ predicate: 'throws.mjs' }, 'x')).toMatchObject({
      pass: false,
      message: 'the predicate threw: boom',
    });
  });

  it('a predicate file without a function is a configuration error', async () => {
    await expect(check({ predicate: 'nothing.mjs' }, 'x')).rejects.toThrow(/must export a function/);
    await expect(check({ predicate: 'absent.mjs' }, 'x')).rejects.toThrow(/Cannot load the predicate file/);
  });
});
