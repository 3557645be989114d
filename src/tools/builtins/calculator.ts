import { all, create, type MathNode } from 'mathjs';
import { z } from 'zod';
import { defineTool } from '../tool.js';

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
  format: (value: unknown, options: { precision: number }) => string;
  isResultSet: (value: unknown) => boolean;
}

let sandbox: Sandbox | undefined;

/** Builds the private instance on first use (it takes a while, and most runs never calculate). */
function getSandbox(): Sandbox {
  if (sandbox) return sandbox;
  // A private mathjs instance: nothing the calculator does touches the shared default instance.
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

/**
 * Evaluates one math expression safely, in a fresh scope: variables set by one call never reach
 * the next, and nothing can reach the parser, define units or reconfigure the instance.
 * Throws an Error with a readable message for bad or refused expressions.
 */
export function calculate(expression: string): string {
  if (expression.length > MAX_EXPRESSION) {
    throw new Error(`Expression too long (${expression.length} characters; the limit is ${MAX_EXPRESSION}).`);
  }
  const { parse } = getSandbox();
  let node: MathNode;
  try {
    node = parse(expression);
  } catch (error) {
    throw new Error(`Could not read "${expression}": ${(error as Error).message}`);
  }
  const refused = node.filter(
    (n) =>
      (n as { isSymbolNode?: boolean }).isSymbolNode === true &&
      BLOCKED_NAMES.has((n as unknown as { name: string }).name),
  );
  if (refused.length > 0) {
    const name = (refused[0] as unknown as { name: string }).name;
    throw new Error(`Function ${name} is disabled in the calculator`);
  }
  const result = node.compile().evaluate(new Map());
  return formatResult(result);
}

function formatResult(result: unknown): string {
  const { format, isResultSet } = getSandbox();
  if (isResultSet(result)) {
    const entries = (result as { entries: unknown[] }).entries;
    return entries.length === 0 ? '(no result)' : entries.map(formatResult).join('\n');
  }
  if (result === undefined) return '(no result)';
  if (typeof result === 'function') return `function ${(result as { syntax?: string }).syntax ?? result.name}`;
  return format(result, { precision: 14 });
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
    'Evaluates a math expression: arithmetic, powers, functions (sqrt, sin, log, round...), matrices, units (5 cm to inch) and complex numbers. Each call starts fresh.',
  input: z.object({
    expression: z.string().min(1).describe('The expression, e.g. 2 * (3 + 4) or sqrt(16) + 12 / 4'),
  }),
  examples: [{ expression: '2 * (3 + 4)' }],
  idempotent: true,
  run: ({ expression }) => calculate(expression),
});
