/**
 * Plain arithmetic without mathjs: numbers, `+ - * / ^ %` (with mathjs's precedence, right-associative
 * `^`, unary minus below `^`, `%` as mathjs's `mod`) and parentheses, read by a small recursive-descent
 * parser that evaluates as it reads. The calculator's first call would otherwise wait for mathjs to
 * load (most of a second); anything this parser does not know (functions, units, percent, implicit
 * products) returns `undefined` and goes to mathjs, so both read an expression the same way.
 */

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string };

const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/i;

function tokens(text: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    const num = NUMBER.exec(text.slice(i));
    if (num) {
      out.push({ kind: 'num', value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if ('+-*/^%()'.includes(ch)) {
      out.push({ kind: 'op', value: ch });
      i++;
      continue;
    }
    return undefined;
  }
  return out;
}

/** mathjs's `mod`: the sign follows the divisor (`-5 % 3` is 1). */
const mod = (x: number, y: number) => (y === 0 ? x : x - y * Math.floor(x / y));

/**
 * The value of a plain arithmetic expression, or `undefined` when it is not one (mathjs reads it).
 *
 * @example
 * evaluateArithmetic('(15 + 7) * 3'); // 66
 */
export function evaluateArithmetic(text: string): number | undefined {
  const list = tokens(text);
  if (!list?.length) return undefined;
  let at = 0;
  const peek = () => list[at];
  const isOp = (value: string) => peek()?.kind === 'op' && peek()?.value === value;
  // Each level returns undefined on anything it does not know, and the whole parse gives up.
  const additive = (): number | undefined => {
    let left = multiplicative();
    while (left !== undefined && (isOp('+') || isOp('-'))) {
      const op = list[at++].value;
      const right = multiplicative();
      if (right === undefined) return undefined;
      left = op === '+' ? left + right : left - right;
    }
    return left;
  };
  const multiplicative = (): number | undefined => {
    let left = unary();
    while (left !== undefined && (isOp('*') || isOp('/') || isOp('%'))) {
      const op = list[at++].value;
      // A `%` with nothing after it is a percentage, which mathjs reads.
      if (
        op === '%' &&
        (peek() === undefined || (peek()?.kind === 'op' && peek()?.value !== '(' && peek()?.value !== '-'))
      )
        return undefined;
      const right = unary();
      if (right === undefined) return undefined;
      left = op === '*' ? left * right : op === '/' ? left / right : mod(left, right);
    }
    return left;
  };
  const unary = (): number | undefined => {
    if (isOp('-') || isOp('+')) {
      const op = list[at++].value;
      const value = unary();
      return value === undefined ? undefined : op === '-' ? -value : value;
    }
    return power();
  };
  const power = (): number | undefined => {
    const base = primary();
    if (base === undefined || !isOp('^')) return base;
    at++;
    const exponent = unary();
    return exponent === undefined ? undefined : base ** exponent;
  };
  const primary = (): number | undefined => {
    const token = list[at++];
    if (!token) return undefined;
    if (token.kind === 'num') return token.value;
    if (token.value !== '(') return undefined;
    const inner = additive();
    if (inner === undefined || !isOp(')')) return undefined;
    at++;
    return inner;
  };
  const value = additive();
  return at === list.length ? value : undefined;
}

/**
 * A number as the calculator prints it: 14 significant digits, trailing zeros dropped, fixed
 * notation from 1e-7 to 1e15 and exponential outside (so `40075 / 1000` is `40.075` and a large
 * product stays readable); the same options are passed to mathjs's `format` for its results.
 */
export const NUMBER_FORMAT = { precision: 14, lowerExp: -7, upperExp: 15 } as const;

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return '0';
  const exponent = Math.floor(Math.log10(Math.abs(Number(value.toPrecision(NUMBER_FORMAT.precision)))));
  if (exponent < NUMBER_FORMAT.lowerExp || exponent >= NUMBER_FORMAT.upperExp) {
    const [mantissa, exp] = value.toExponential(NUMBER_FORMAT.precision - 1).split('e');
    return `${mantissa.replace(/\.?0+$/, '')}e${exp.startsWith('-') ? exp : `+${exp.replace('+', '')}`}`;
  }
  const fixed = value.toPrecision(NUMBER_FORMAT.precision);
  const plain = fixed.includes('e') ? Number(fixed).toFixed(Math.max(0, -exponent + 13)) : fixed;
  return plain.includes('.') ? plain.replace(/\.?0+$/, '') : plain;
}
