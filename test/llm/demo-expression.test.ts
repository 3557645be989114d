import { describe, expect, it } from 'vitest';
import { arabicNumerals, readChineseNumber } from '../../src/llm/chinese-numerals.js';
import { findExpressions } from '../../src/llm/demo-expression.js';

describe('findExpressions', () => {
  it.each([
    ['What is (15 + 7) * 3?', ['(15 + 7) * 3']],
    ['(the answer) is 3+4', ['3+4']],
    ['2(3+4)?', ['2(3+4)']],
    ['sqrt(2) * 2', ['sqrt(2) * 2']],
    ['5!', ['5!']],
    ['20 mod 6', ['20 mod 6']],
    ['2**8', ['2^8']],
    ['What is 9 − 4?', ['9 - 4']],
    ['3 x 4', ['3 * 4']],
    ['5 squared', ['5^2']],
    ['20 percent of 50', ['20% * 50']],
    ['2的平方加3的立方', ['2^2 + 3^3']],
    ['144的平方根', ['sqrt(144)']],
  ])('%s → %j', (question, expressions) => {
    expect(findExpressions(question)).toEqual(expressions);
  });

  it.each([
    'Is 2024-05-01 a Monday?',
    'GPT-4 is cool',
    'I have 3 apples',
    'Which model is best?',
    '加拿大的首都是哪里',
  ])('finds no arithmetic in %s', (question) => {
    expect(findExpressions(question)).toEqual([]);
  });
});

describe('Chinese numerals', () => {
  it.each([
    ['十五', 15],
    ['二十', 20],
    ['一百二十三', 123],
    ['两千零五', 2005],
    ['一万', 10_000],
    ['一亿两千万', 120_000_000],
    ['二零二四', 2024],
    ['三点五', 3.5],
    ['零', 0],
  ])('%s is %d', (text, value) => {
    expect(readChineseNumber(text)).toBe(value);
  });

  it('rewrites numerals inside a sentence and leaves other words', () => {
    expect(arabicNumerals('三加五等于几')).toBe('3加5等于几');
  });
});
