import { hasCjk } from '../../core/index.js';

export { expressionIn, normalizeExpression } from '../../core/index.js';

/** How to write an expression, with examples, in the language of the question. */
export function syntaxHint(input: string): string {
  return hasCjk(input)
    ? '可用的写法：数字与 + - * /、乘方 ^（或 **）、取模 %、括号，以及 sqrt、sin、log 等函数；×、÷ 和全角符号也可以。例如：15**2 + 20/4、(15 + 7) × 3、sqrt(16)、sin(30°)（角度要写 ° 或 deg，否则按弧度计算）、5 cm to inch。'
    : 'Write numbers with + - * /, powers ^ (or **), % for modulo, parentheses, and functions such as sqrt, sin or log; × and ÷ work too. Examples: 15**2 + 20/4, (15 + 7) * 3, sqrt(16), sin(30 deg) (angles are radians unless they say deg or °), 5 cm to inch.';
}
