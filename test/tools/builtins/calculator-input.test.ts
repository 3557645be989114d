import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { calculate } from '../../../src/tools/builtins/calculator.js';
import { evaluateArithmetic, formatNumber } from '../../../src/tools/builtins/calculator-arithmetic.js';
import { CALCULATOR_FORMS, CALCULATOR_SENTENCES } from './calculator-forms.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

describe('calculator input as people and models write it', () => {
  it.each(CALCULATOR_FORMS)('reads %s as %s', (expression, expected) => {
    expect(calculate(expression)).toBe(expected);
  });

  it.each(CALCULATOR_SENTENCES)('finds the expression inside %s', (sentence, expected) => {
    expect(calculate(sentence)).toBe(expected);
  });

  it('takes angles in radians, and says what a bare trigonometric call is in degrees', () => {
    const answer = calculate('请计算一下sin(30)的值');
    expect(answer).toMatch(/^-0\.988031624092/);
    expect(answer).toContain('sin(30 deg) = 0.5');
    expect(calculate('sin(pi / 6)')).toBe('0.5');
  });

  it('explains the accepted syntax with examples, in the language of the input', () => {
    expect(() => calculate('2 +* 3')).toThrow(/Could not read "2 \+\* 3".*Examples: 15\*\*2 \+ 20\/4/s);
    expect(() => calculate('你好世界')).toThrow(/无法识别算式“你好世界”.*例如：15\*\*2 \+ 20\/4/s);
  });

  it('the small evaluator reads plain arithmetic and the common functions like mathjs and leaves the rest to it', () => {
    expect(evaluateArithmetic('(15 + 7) * 3')).toBe(66);
    expect(evaluateArithmetic('2 * -3 ^ 2')).toBe(-18);
    expect(evaluateArithmetic('1 / 0')).toBe(Number.POSITIVE_INFINITY);
    expect(evaluateArithmetic('sqrt(4) + log(100, 10)')).toBe(4);
    for (const other of ['sqrt(-4)', '50%', '2(3)', '2 3', '1 +', 'x + 1', '5 cm']) {
      expect(evaluateArithmetic(other), other).toBeUndefined();
    }
    expect([0.1 + 0.2, 1 / 3, 1e21, 1e-8, 2 ** 100, -0.5].map(formatNumber)).toEqual([
      '0.3',
      '0.33333333333333',
      '1e+21',
      '1e-8',
      '1.2676506002282e+30',
      '-0.5',
    ]);
  });

  it('answers plain arithmetic and the common functions without loading mathjs, and loads it for the rest', async () => {
    const loaded = async (expression: string) => {
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          join(ROOT, 'test', 'helpers', 'loaded-packages.mjs'),
          './test/fixtures/calculator/calculate-once.ts',
          expression,
        ],
        { cwd: ROOT },
      );
      const lines = stdout.trim().split('\n');
      return { answer: lines[0], packages: JSON.parse(lines.at(-1) ?? '[]') as string[] };
    };
    const plain = await loaded('(15 + 7) * 3');
    expect(plain.answer).toBe('66');
    expect(plain.packages).not.toContain('mathjs');
    const common = await loaded('sqrt(16) + sin(pi / 6)');
    expect(common.answer).toBe('4.5');
    expect(common.packages).not.toContain('mathjs');
    const full = await loaded('5 cm to inch');
    expect(full.answer).toBe('1.9685039370079 inch');
    expect(full.packages).toContain('mathjs');
  }, 60_000);
});
