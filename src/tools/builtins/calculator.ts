import type { MathNode } from 'mathjs';
import { z } from 'zod';
import { hasCjk, requireDependency } from '../../core/index.js';
import { runWithTimeLimit, TimeLimitError } from '../run-with-time-limit.js';
import { defineTool } from '../tool.js';
import { evaluateArithmetic, formatNumber, NUMBER_FORMAT } from './calculator-arithmetic.js';
import { expressionIn, normalizeExpression, syntaxHint } from './calculator-input.js';

/**
 * Everything that reaches the expression parser, compiles, rewrites expressions or changes the
 * instance (units, config, event listeners, typed functions). Expressions may not name any of them.
 */
const BLOCKED = [
  'import',
  'create',
  'factory',
  'createUnit',
  'evaluate',
  'parse',
  'compile',
  'parser',
  'simplify',
  'simplifyConstant',
  'simplifyCore',
  'derivative',
  'resolve',
  'rationalize',
  'leafCount',
  'symbolicEqual',
  'reviver',
  'replacer',
  'chain',
  'config',
  'help',
  'typed',
  'on',
  'off',
  'once',
  'emit',
] as const;
const BLOCKED_NAMES = new Set<string>(BLOCKED);

// `typed` and the event functions are used inside mathjs itself, so they are refused by name in
// the syntax tree instead of being replaced on the instance.
const KEPT_INTERNALLY = new Set(['typed', 'on', 'off', 'once', 'emit']);

interface Sandbox {
  parse: (expression: string) => MathNode;
  format: (value: unknown, options: typeof NUMBER_FORMAT) => string;
  isResultSet: (value: unknown) => boolean;
}

let sandbox: Sandbox | undefined;

/** Builds the private instance on first use (it takes a while, and most runs never calculate). */
function getSandbox(): Sandbox {
  if (sandbox) return sandbox;
  // A private mathjs instance: nothing the calculator does touches the shared default instance.
  // mathjs loads here, not at import: it takes seconds, and most runs never calculate.
  const { all, create } = requireDependency<typeof import('mathjs')>('mathjs');
  const math = create(all);
  // Materialise every lazy factory first, so disabling functions below cannot break one created later.
  for (const key of Object.keys(math)) void (math as unknown as Record<string, unknown>)[key];
  // Our own references, taken before the public names are disabled.
  const own: Sandbox = { parse: math.parse, format: math.format, isResultSet: math.isResultSet };
  const disabled: Record<string, () => never> = {};
  for (const name of BLOCKED) {
    if (KEPT_INTERNALLY.has(name)) continue;
    disabled[name] = () => {
      throw new Error(`Function ${name} is disabled in the calculator`);
    };
  }
  math.import(disabled, { override: true });
  sandbox = own;
  return own;
}

const MAX_EXPRESSION = 2000;

/** Milliseconds one evaluation may take before it is stopped (`zeros(1e5, 1e5)`, `factorial(bignumber(1e8))`). */
export const CALCULATOR_TIME_LIMIT_MS = 1000;

// Plain arithmetic on numbers is always fast, so it skips the watchdog (which costs a thread per call).
const FAST_FUNCTIONS = new Set(
  'abs sqrt cbrt exp log log10 log2 log1p sin cos tan asin acos atan atan2 sinh cosh tanh round floor ceil fix sign min max hypot mod'.split(
    ' ',
  ),
);
const FAST_OPERATORS = new Set(['+', '-', '*', '/', '^', '%', 'mod', '.*', './']);

function isFast(node: MathNode): boolean {
  const n = node as MathNode & { fn?: unknown; op?: string; name?: string; value?: unknown };
  switch (node.type) {
    case 'ConstantNode':
      return typeof n.value === 'number';
    case 'ParenthesisNode':
      return true;
    case 'OperatorNode':
      return FAST_OPERATORS.has(n.op ?? '');
    case 'SymbolNode':
      return true;
    case 'FunctionNode': {
      const fn = n.fn as { type?: string; name?: string } | undefined;
      return fn?.type === 'SymbolNode' && FAST_FUNCTIONS.has(fn.name ?? '');
    }
    default:
      return false;
  }
}

/**
 * Evaluates one math expression safely, in a fresh scope: variables set by one call never reach
 * the next, and nothing can reach the parser, define units or reconfigure the instance. The input
 * may be written the way people write it (`15**2 + 20/4`, `(１５＋７)×３`, `40075÷1000`, a sentence
 * around the expression); plain arithmetic is answered without loading mathjs. Angles are radians,
 * as in mathjs and every programming language, unless they carry `°`, `度` or `deg`; a trigonometric
 * call on a bare number also shows the value in degrees, since questions often mean those.
 * Throws an Error with a readable message, in the input's language, that shows the accepted syntax.
 */
export function calculate(expression: string): string {
  if (expression.length > MAX_EXPRESSION) {
    throw new Error(`Expression too long (${expression.length} characters; the limit is ${MAX_EXPRESSION}).`);
  }
  const text = normalizeExpression(expression);
  const fast = evaluateArithmetic(text);
  if (fast !== undefined) return formatNumber(fast);
  let node: MathNode;
  try {
    node = getSandbox().parse(text);
  } catch (error) {
    // Maybe a sentence around the expression: "请计算一下sin(30)的值", "what is 15^2 + 20/4?"
    const inner = expressionIn(text);
    if (inner && inner !== text) return calculate(inner);
    const reason = (error as Error).message;
    throw new Error(
      hasCjk(expression)
        ? `无法识别算式“${expression}”（${reason}）。${syntaxHint(expression)}`
        : `Could not read "${expression}" (${reason}). ${syntaxHint(expression)}`,
    );
  }
  try {
    return withDegrees(node, evaluateNode(node));
  } catch (error) {
    // Words mathjs read as symbols ("Please compute sqrt(16) + 1"): the expression among them.
    const inner = /Undefined symbol/.test((error as Error).message) ? expressionIn(text) : undefined;
    if (inner && inner !== text) return calculate(inner);
    throw error;
  }
}

function evaluateNode(node: MathNode): string {
  const refused = node.filter(
    (n) =>
      (n as { isSymbolNode?: boolean }).isSymbolNode === true &&
      BLOCKED_NAMES.has((n as unknown as { name: string }).name),
  );
  if (refused.length > 0) {
    const name = (refused[0] as unknown as { name: string }).name;
    throw new Error(`Function ${name} is disabled in the calculator`);
  }
  const evaluate = () => formatResult(node.compile().evaluate(new Map()));
  if (node.filter((n) => !isFast(n)).length === 0) return evaluate();
  try {
    return runWithTimeLimit(evaluate, CALCULATOR_TIME_LIMIT_MS);
  } catch (error) {
    if (error instanceof TimeLimitError) {
      throw new Error(
        `The expression took longer than ${error.limitMs} ms and was stopped; use smaller numbers or matrices.`,
      );
    }
    throw error;
  }
}

const TRIG = new Set(['sin', 'cos', 'tan']);

/** `sin(30)` is in radians; when a trig function got a bare number, the answer also says what it is in degrees. */
function withDegrees(node: MathNode, result: string): string {
  const bare = node.filter((n) => {
    const call = n as MathNode & { fn?: { name?: string }; args?: MathNode[] };
    return n.type === 'FunctionNode' && TRIG.has(call.fn?.name ?? '') && call.args?.[0]?.type === 'ConstantNode';
  });
  if (!bare.length) return result;
  const inDegrees = node.transform((n) => {
    if (!bare.includes(n)) return n;
    const call = n as MathNode & { fn: { name: string }; args: MathNode[] };
    return getSandbox().parse(`${call.fn.name}(${call.args[0].toString()} deg)`);
  });
  try {
    return `${result} (in radians; in degrees, ${inDegrees.toString()} = ${evaluateNode(inDegrees)})`;
  } catch {
    return result;
  }
}

function formatResult(result: unknown): string {
  const { format, isResultSet } = getSandbox();
  if (isResultSet(result)) {
    const entries = (result as { entries: unknown[] }).entries;
    return entries.length === 0 ? '(no result)' : entries.map(formatResult).join('\n');
  }
  if (result === undefined) return '(no result)';
  if (typeof result === 'function') return `function ${(result as { syntax?: string }).syntax ?? result.name}`;
  if (typeof result === 'number') return formatNumber(result);
  return format(result, NUMBER_FORMAT);
}

/**
 * The safe `calculator` tool: arithmetic, functions (sqrt, sin, log...), matrices, units
 * (`5 cm to inch`), complex numbers, via a locked-down mathjs instance. Never eval or Function.
 *
 * @example
 * await calculatorTool.run({ expression: '2 * (3 + 4)' }, ctx); // '14'
 */
export const calculatorTool = defineTool({
  name: 'calculator',
  description:
    'Evaluates a math expression: arithmetic (+ - * / ^ or **, %, parentheses; × ÷ and full-width symbols too), functions (sqrt, sin, log, round...; angles in radians unless written 30 deg or 30°), matrices, units (5 cm to inch) and complex numbers. Each call starts fresh.',
  input: z.object({
    expression: z.string().min(1).describe('The expression, e.g. 2 * (3 + 4), 15**2 + 20/4 or sqrt(16) + 12 / 4'),
  }),
  examples: [{ expression: '2 * (3 + 4)' }],
  idempotent: true,
  run: ({ expression }) => calculate(expression),
});
