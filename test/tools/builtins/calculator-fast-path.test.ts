import { all, create } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { evaluateArithmetic } from '../../../src/tools/builtins/calculator-arithmetic.js';
import { normalizeExpression } from '../../../src/tools/builtins/calculator-input.js';
import { CALCULATOR_FORMS, CALCULATOR_SENTENCES } from './calculator-forms.js';

const math = create(all);

const FUNCTIONS = 'sqrt cbrt exp log log10 log2 abs sin cos tan asin acos atan sinh cosh tanh'.split(' ');
const ARGUMENTS = ['0', '1', '-1', '0.5', '-0.5', '2', '-4', '16', '1e-9', '1e300', 'pi', 'pi / 6', '-pi', 'e', '30'];

/** Every function on every argument, two-argument calls, constants, and the calculator's own forms. */
const CORPUS = [
  ...FUNCTIONS.flatMap((fn) => ARGUMENTS.map((arg) => `${fn}(${arg})`)),
  ...['log(100, 10)', 'log(8, 2)', 'log(-8, 2)', 'log(8, -2)', 'atan2(1, -1)', 'atan2(0, 0)', 'sqrt(16) + 12 / 4'],
  ...['tau', 'phi', 'PI', 'E', '2 * pi', 'sqrt(2) ^ 2', '(-8) ^ (1 / 3)', '(-8) ^ 3', '-8 ^ 0.5', '2 ^ -0.5'],
  ...['sin(30)', 'sin((30))', 'sin(-30)', 'cos(60) + 1', 'sqrt(sqrt(16))', 'exp(log(10))', 'abs(-3) * -2'],
  ...['1 + 2 * 3 % 4', '7 % -3', '0.1 + 0.2', '1 / 0', '-1 / 0', '0 / 0', '2 ^ 3 ^ 2', '-2 ^ 2'],
  ...CALCULATOR_FORMS.map(([expression]) => normalizeExpression(expression)),
  ...CALCULATOR_SENTENCES.map(([sentence]) => normalizeExpression(sentence)),
];

function mathjsNumber(expression: string): unknown {
  try {
    return math.evaluate(expression);
  } catch {
    return 'error';
  }
}

describe('the calculator fast path against mathjs', () => {
  it.each(CORPUS)('%s: the same number as mathjs, or left to mathjs', (expression) => {
    const fast = evaluateArithmetic(expression);
    if (fast === undefined) return;
    expect(mathjsNumber(expression)).toBe(fast);
  });

  it('answers the common functions itself, and leaves complex, degree and unknown cases to mathjs', () => {
    const answered = CORPUS.filter((expression) => evaluateArithmetic(expression) !== undefined);
    expect(answered).toEqual(expect.arrayContaining(['sqrt(16)', 'log(100, 10)', 'sin(pi / 6)', 'tau', 'cbrt(-1)']));
    for (const left of ['sqrt(-4)', 'log(-1)', 'asin(2)', 'sin(30)', '(-8) ^ (1 / 3)', 'round(pi, 3)', 'constructor']) {
      expect(evaluateArithmetic(left), left).toBeUndefined();
    }
    for (const broken of ['sqrt()', 'sqrt(1,)', 'log(1, 2, 3)', 'sqrt 4', 'pi(2)', '2pi', 'hasOwnProperty(1)']) {
      expect(evaluateArithmetic(broken), broken).toBeUndefined();
    }
  });
});
