import { describe, expect, it } from 'vitest';
import { CALCULATOR_TIME_LIMIT_MS, calculate, calculatorTool } from '../../../src/tools/builtins/calculator.js';
import { builtinTools } from '../../../src/tools/builtins/node.js';
import { createToolExecutor } from '../../../src/tools/tool-executor.js';
import { ToolRegistry } from '../../../src/tools/tool-registry.js';

const run = async (input: unknown) => {
  const executor = createToolExecutor({ registry: new ToolRegistry([calculatorTool]) });
  const [record] = await executor.execute([{ id: '1', name: 'calculator', input }]);
  return record;
};

describe('calculator', () => {
  it.each([
    ['2 + 3 * 4', '14'],
    ['(2 + 3) * 4', '20'],
    ['sqrt(16) + 12 / 4', '7'],
    ['1 / 3', '0.33333333333333'],
    ['0.1 + 0.2', '0.3'],
    ['2 ^ 100', '1.2676506002282e+30'],
    ['sqrt(-4)', '2i'],
    ['5 cm to inch', '1.9685039370079 inch'],
    ['det([1, 2; 3, 4])', '-2'],
    ['mean([1, 2, 3])', '2'],
    ['eigs([1, 2; 2, 1]).values', '[-1, 3]'],
    ['log(100, 10)', '2'],
    ['round(pi, 3)', '3.142'],
    ['sin(pi / 2)', '1'],
    ['x = 1:3; sum(x)', '6'],
    ['f(x) = x ^ 2; f(3)', '9'],
    ['12% of 50'.replace('% of', ' / 100 *'), '6'],
  ])('evaluates %s to %s', (expression, expected) => {
    expect(calculate(expression)).toBe(expected);
  });

  it('answers through the executor, also for a bare string', async () => {
    expect(await run({ expression: '6 * 7' })).toMatchObject({ ok: true, output: '42' });
    expect(await run('6 * 7')).toMatchObject({ ok: true, output: '42' });
  });

  it('turns a math error into a clear failure observation', async () => {
    const record = await run({ expression: 'foo + 1' });
    expect(record).toMatchObject({ ok: false, output: 'Tool calculator failed: Undefined symbol foo' });
    const syntax = await run({ expression: '2 +* 3' });
    expect(syntax.output).toContain('Tool calculator failed: Could not read "2 +* 3"');
  });

  it('refuses an empty expression as invalid input', async () => {
    expect(await run({ expression: '' })).toMatchObject({ ok: false, errorKind: 'invalid_input' });
  });

  it.each([
    'import({}, {override: true})',
    'import({evaluate: f(x) = 1}, {override: true})',
    'createUnit("x")',
    'createUnit("knot", "0.514444 m/s")',
    'evaluate("1")',
    'parse("1")',
    'compile("1")',
    'parser()',
    'simplify("x + x")',
    'derivative("x^2", "x")',
    'resolve(1)',
    'reviver',
    'chain(3)',
    'config({number: "BigNumber"})',
    'typed("f", {})',
    'on("config", f(x) = 1)',
    'help(sin)',
    'f = evaluate; f("1")',
    'g = typed; 1',
    'x = {a: parse}; 1',
  ])('refuses the instance-changing or parser-reaching call %s', (expression) => {
    expect(() => calculate(expression)).toThrow(/disabled in the calculator/);
  });

  it.each([
    'cos.constructor("return process")()',
    '(cos.constructor)("return process")()',
    '[].map.constructor',
    'cos["constructor"]',
    'f = cos; f.constructor',
    'unit("5 m").constructor',
    'cos.toString.constructor',
    'eval("1")',
    'process',
    'Function("return 1")()',
  ])('refuses the sandbox escape %s', (expression) => {
    expect(() => calculate(expression)).toThrow();
  });

  it('still works after every refused payload', () => {
    for (const payload of ['import({}, {override: true})', 'createUnit("x")', 'config({number: "BigNumber"})']) {
      expect(() => calculate(payload)).toThrow();
    }
    expect(calculate('1 / 3')).toBe('0.33333333333333');
    expect(() => calculate('1 x')).toThrow();
  });

  it('does not leak variables or functions from one call into the next', () => {
    expect(calculate('a = 5')).toBe('5');
    expect(() => calculate('a + 1')).toThrow(/Undefined symbol a/);
    calculate('sq(x) = x * x');
    expect(() => calculate('sq(3)')).toThrow(/Undefined function sq/);
    calculate('pi = 3');
    expect(calculate('round(pi, 2)')).toBe('3.14');
  });

  it.each(['zeros(1e5, 1e5)', 'size(1:1e9)', 'factorial(bignumber(1e8))'])(
    'stops the runaway expression %s after the time limit',
    (expression) => {
      const began = Date.now();
      expect(() => calculate(expression)).toThrow(/took longer than \d+ ms and was stopped/);
      expect(Date.now() - began).toBeLessThan(CALCULATOR_TIME_LIMIT_MS + 5000);
      expect(calculate('[1, 2] * 2')).toBe('[2, 4]');
    },
  );

  it('refuses very long expressions', () => {
    expect(() => calculate('1+'.repeat(2000) + '1')).toThrow(/too long/);
  });

  it('is registered in the built-in tool map', () => {
    expect(builtinTools.calculator?.()).toEqual([calculatorTool]);
    expect(calculatorTool.parameters).toMatchObject({ required: ['expression'] });
  });
});
