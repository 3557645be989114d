/**
 * Plain arithmetic and the common real functions without mathjs: numbers, `+ - * / ^ %` (with mathjs's
 * precedence, right-associative `^`, unary minus below `^`, `%` as mathjs's `mod`), parentheses, the
 * constants `pi`, `e`, `tau`, `phi` and `sqrt`, `log`, `sin`, … (FUNCTIONS), read by a small
 * recursive-descent parser that evaluates as it reads. The calculator's first call would otherwise wait
 * for mathjs to load (most of a second, seconds on a loaded machine). Anything this parser does not know,
 * or whose answer mathjs gives differently (a complex root, a trigonometric call on a bare number that
 * the calculator also answers in degrees, units, percent, implicit products), returns `undefined` and goes
 * to mathjs, so both read an expression the same way. No eval: every name is looked up in a table.
 */

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string } | { kind: 'name'; value: string };

const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/i;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** mathjs's constants, by the names it reads. */
const CONSTANTS: Readonly<Record<string, number>> = {
  pi: Math.PI,
  PI: Math.PI,
  e: Math.E,
  E: Math.E,
  tau: 2 * Math.PI,
  phi: (1 + Math.sqrt(5)) / 2,
};

type RealFunction = (args: number[]) => number | undefined;

/** A one-argument function, answered here only where mathjs's answer is the same real number. */
const unary =
  (f: (x: number) => number, real: (x: number) => boolean = () => true): RealFunction =>
  (args) =>
    args.length === 1 && real(args[0]) ? f(args[0]) : undefined;
const nonNegative = (x: number) => x >= 0;
const unit = (x: number) => x >= -1 && x <= 1;

/**
 * The functions mathjs computes on real numbers with `Math` itself (its `plain/number` implementations), so
 * the answers are the same bits. Outside the real domain (`sqrt(-4)` is `2i`) they give way to mathjs.
 * `round`, `floor`, `min`, `max`, `hypot` are left to mathjs: it applies tolerances `Math` does not.
 */
const FUNCTIONS: Readonly<Record<string, RealFunction>> = {
  sqrt: unary(Math.sqrt, nonNegative),
  cbrt: unary(Math.cbrt),
  exp: unary(Math.exp),
  log: (args) =>
    args.length === 1 && args[0] >= 0
      ? Math.log(args[0])
      : args.length === 2 && args[0] > 0 && args[1] > 0
        ? Math.log(args[0]) / Math.log(args[1])
        : undefined,
  log10: unary(Math.log10, nonNegative),
  log2: unary(Math.log2, nonNegative),
  abs: unary(Math.abs),
  sin: unary(Math.sin),
  cos: unary(Math.cos),
  tan: unary(Math.tan),
  asin: unary(Math.asin, unit),
  acos: unary(Math.acos, unit),
  atan: unary(Math.atan),
  atan2: (args) => (args.length === 2 ? Math.atan2(args[0], args[1]) : undefined),
  sinh: unary(Math.sinh),
  cosh: unary(Math.cosh),
  tanh: unary(Math.tanh),
};

/** `sin(30)` is answered by mathjs, which also says what it would be in degrees. */
const TRIG = new Set(['sin', 'cos', 'tan']);

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
    const name = NAME.exec(text.slice(i));
    if (name) {
      out.push({ kind: 'name', value: name[0] });
      i += name[0].length;
      continue;
    }
    if ('+-*/^%(),'.includes(ch)) {
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
 * The value of a plain arithmetic expression over numbers, constants and the common real functions, or
 * `undefined` when it is not one (mathjs reads it).
 *
 * @example
 * evaluateArithmetic('(15 + 7) * 3'); // 66
 * evaluateArithmetic('sqrt(16) + 12 / 4'); // 7
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
    let left = signed();
    while (left !== undefined && (isOp('*') || isOp('/') || isOp('%'))) {
      const op = list[at++].value;
      // A `%` with nothing after it is a percentage, which mathjs reads.
      if (
        op === '%' &&
        (peek() === undefined || (peek()?.kind === 'op' && peek()?.value !== '(' && peek()?.value !== '-'))
      )
        return undefined;
      const right = signed();
      if (right === undefined) return undefined;
      left = op === '*' ? left * right : op === '/' ? left / right : mod(left, right);
    }
    return left;
  };
  const signed = (): number | undefined => {
    if (isOp('-') || isOp('+')) {
      const op = list[at++].value;
      const value = signed();
      return value === undefined ? undefined : op === '-' ? -value : value;
    }
    return power();
  };
  const power = (): number | undefined => {
    const base = primary();
    if (base === undefined || !isOp('^')) return base;
    at++;
    const exponent = signed();
    // A negative base to a fractional power is complex in mathjs (`(-8)^(1/3)`), NaN in JavaScript.
    if (exponent === undefined || (base < 0 && !Number.isInteger(exponent))) return undefined;
    return base ** exponent;
  };
  const primary = (): number | undefined => {
    const token = list[at++];
    if (!token) return undefined;
    if (token.kind === 'num') return token.value;
    if (token.kind === 'name')
      return isOp('(') ? call(token.value) : Object.hasOwn(CONSTANTS, token.value) ? CONSTANTS[token.value] : undefined;
    if (token.value !== '(') return undefined;
    const inner = additive();
    if (inner === undefined || !isOp(')')) return undefined;
    at++;
    return inner;
  };
  const call = (name: string): number | undefined => {
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    at++; // the '('
    if (!fn || (TRIG.has(name) && list[at]?.kind === 'num' && isOpAt(at + 1, ')'))) return undefined;
    const args: number[] = [];
    for (;;) {
      const arg = additive();
      if (arg === undefined) return undefined;
      args.push(arg);
      if (!isOp(',')) break;
      at++;
    }
    if (!isOp(')')) return undefined;
    at++;
    return fn(args);
  };
  const isOpAt = (index: number, value: string) => list[index]?.kind === 'op' && list[index]?.value === value;
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
