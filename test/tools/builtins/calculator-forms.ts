// The forms of input the calculator reads, with their values: its own tests check each, and the demo
// model's tests walk them through the demo (test/llm/demo-calculator-forms.test.ts), so the two cannot drift.

/** Expressions as people and models write them. */
export const CALCULATOR_FORMS: [expression: string, value: string][] = [
  ['15**2 + 20/4', '230'],
  ['2 ** 10', '1024'],
  ['(１５＋７)×３', '66'],
  ['40075÷1000', '40.075'],
  ['６×（３－１）', '12'],
  ['2 ^ 3 ^ 2', '512'],
  ['-2^2', '-4'],
  ['-5 % 3', '1'],
  ['50%', '0.5'],
  ['3加上5乘以2', '13'],
  ['12的平方', '144'],
  ['【2+3】×4', '20'],
  ['√16 + 1', '5'],
  ['2π', '6.2831853071796'],
  ['sin(30°)', '0.5'],
  ['cos(60度)', '0.5'],
  ['123456 * 1000', '123456000'],
  ['1 + 2 =', '3'],
];

/** Expressions inside a sentence. */
export const CALCULATOR_SENTENCES: [sentence: string, value: string][] = [
  ['请计算一下(15 + 7) * 3的值', '66'],
  ['地球周长40075公里除以1000等于多少？', '40.075'],
  ['What is 15^2 + 20/4?', '230'],
  ['Please compute sqrt(16) + 1.', '5'],
];
