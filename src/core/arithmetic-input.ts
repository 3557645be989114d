/**
 * How the calculator reads its input, kept in core so the demo model reads questions the same way
 * (`llm/` cannot import `tools/`). What models and people actually type as a calculation, turned into mathjs syntax: full-width digits,
 * operators and brackets (NFKC), `×` `÷` `−` `**`, Chinese operator words (加上, 减去, 乘以, 除以, 的平方),
 * degree marks (`30°`, `30度` become `30 deg`), and the expression inside a sentence
 * ("请计算一下sin(30)的值", "What is 15**2 + 20/4?").
 */

const SYMBOLS: [RegExp, string][] = [
  [/\*\*/g, '^'],
  [/[×✕✖⨉]/g, '*'],
  [/[·⋅](?=\s*[\d(（])/g, '*'],
  [/÷/g, '/'],
  [/[−–—]/g, '-'],
  [/【/g, '('],
  [/】/g, ')'],
  [/√\s*(\d+(?:\.\d+)?|\([^()]*\))/g, 'sqrt($1)'],
  [/π/g, 'pi'],
  // Degrees: trigonometry in mathjs takes radians unless the angle carries a unit.
  [/(\d+(?:\.\d+)?)\s*(?:°|度|degrees?\b)/g, '($1 deg)'],
];

// Chinese arithmetic words, between two operands. 除以 (divided by) only: "A除B" means B / A.
const WORDS: [RegExp, string][] = [
  [/(?:加上|加)/g, '+'],
  [/(?:减去|减)/g, '-'],
  [/(?:乘以|乘)/g, '*'],
  [/除以/g, '/'],
  [/的平方根/g, '^0.5'],
  [/的平方/g, '^2'],
  [/的立方/g, '^3'],
  [/百分之\s*(\d+(?:\.\d+)?)/g, '$1%'],
];

/** Characters an expression is made of (after NFKC and the replacements above). */
const EXPRESSION_RUN = /[0-9A-Za-z_.+\-*/^%()!,\s]+/g;
const HAS_DIGIT = /\d/;
const MATH_WORDS =
  /^(?:abs|sqrt|cbrt|exp|log|log10|log2|ln|sin|cos|tan|asin|acos|atan|sinh|cosh|tanh|round|floor|ceil|min|max|mod|pow|pi|e|deg|rad|to|in|cm|mm|m|km|inch|ft|mi|kg|g|lb|[a-z])$/i;

/** Rewrites symbols and Chinese operator words into mathjs syntax; a string with nothing to rewrite is unchanged. */
export function normalizeExpression(input: string): string {
  let text = input.normalize('NFKC');
  for (const [pattern, replacement] of SYMBOLS) text = text.replace(pattern, replacement);
  for (const [pattern, replacement] of WORDS) text = text.replace(pattern, replacement);
  return text.replace(/[=＝]\s*[?？]?\s*$/u, '').trim();
}

/** The expression inside a sentence: the longest run of expression characters that has a digit, trimmed of the words around it. */
export function expressionIn(sentence: string): string | undefined {
  // A unit word between a number and an operator ("40075公里/1000") belongs to the number.
  const text = sentence.replace(/(\d)\s*[\p{sc=Han}]{1,3}(?=\s*[+\-*/^])/gu, '$1');
  const runs = [...text.matchAll(EXPRESSION_RUN)].map((m) => trimWords(m[0])).filter((run) => HAS_DIGIT.test(run));
  const best = runs.sort((a, b) => b.length - a.length)[0];
  if (!best) return undefined;
  // Only words may surround it: a remainder with quotes or brackets is code, not a sentence.
  const rest = text.replace(best, ' ');
  return /^[\p{L}\p{M}\p{N}\s?!.,:;，。？！：；、“”]*$/u.test(rest) && !/["'`[\]{}]/.test(rest) ? best : undefined;
}

/** Drops leading and trailing words that are not math ("what is", "please", "equal"), keeping function names. */
function trimWords(run: string): string {
  const words = run.trim().split(/(\s+)/);
  while (words.length && /^[A-Za-z]+$/.test(words[0]) && !MATH_WORDS.test(words[0])) words.splice(0, 2);
  while (words.length && /^[A-Za-z]+$/.test(words.at(-1) ?? '') && !MATH_WORDS.test(words.at(-1) ?? '')) {
    words.splice(-2, 2);
  }
  return words
    .join('')
    .trim()
    .replace(/^[,+*/^%)\s]+|[,.+\-*/^%(\s]+$/g, '');
}
