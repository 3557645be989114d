import { arabicNumerals } from './chinese-numerals.js';

const NUM = String.raw`\d+(?:\.\d+)?%?`;
const AFTER = String.raw`(?=\s*(?:[\d(.-]|sqrt))`;
const BEFORE = String.raw`(?<=[\d)%!]\s*)`;

/** Spoken operators, in the order they are rewritten (longer phrases first). */
const WORDS: [RegExp, string][] = [
  // English
  [new RegExp(`(?:the\\s+)?square\\s+root\\s+of\\s+(${NUM})`, 'gi'), 'sqrt($1)'],
  [new RegExp(`sqrt\\s+(?:of\\s+)?(${NUM})`, 'gi'), 'sqrt($1)'],
  [new RegExp(`${BEFORE}\\s*(?:percent|per\\s*cent)`, 'gi'), '%'],
  [new RegExp(`(?<=%)\\s*of${AFTER}`, 'gi'), ' * '],
  [
    new RegExp(`${BEFORE}\\s*(?:to\\s+the\\s+power\\s+of|raised\\s+to(?:\\s+the\\s+power\\s+of)?)${AFTER}`, 'gi'),
    ' ^ ',
  ],
  [new RegExp(`${BEFORE}\\s*squared\\b`, 'gi'), '^2'],
  [new RegExp(`${BEFORE}\\s*cubed\\b`, 'gi'), '^3'],
  [new RegExp(`${BEFORE}\\s*(?:multiplied\\s+by|times|x)${AFTER}`, 'gi'), ' * '],
  [new RegExp(`${BEFORE}\\s*(?:divided\\s+by|over)${AFTER}`, 'gi'), ' / '],
  [new RegExp(`${BEFORE}\\s*plus${AFTER}`, 'gi'), ' + '],
  [new RegExp(`${BEFORE}\\s*minus${AFTER}`, 'gi'), ' - '],
  [new RegExp(`${BEFORE}\\s*(?:mod|modulo)${AFTER}`, 'gi'), ' mod '],
  // Chinese
  [new RegExp(`(?:开平方|平方根|根号)\\s*(${NUM})`, 'g'), 'sqrt($1)'],
  [new RegExp(`(${NUM})\\s*的平方根`, 'g'), 'sqrt($1)'],
  [new RegExp(`${BEFORE}的(${NUM})次(?:方|幂)`, 'g'), '^$1'],
  [new RegExp(`${BEFORE}的平方`, 'g'), '^2'],
  [new RegExp(`${BEFORE}的立方`, 'g'), '^3'],
  [new RegExp(`(?<=%)\\s*乘以?${AFTER}`, 'g'), ' * '],
  [new RegExp(`${BEFORE}\\s*(?:乘以|乘)${AFTER}`, 'g'), ' * '],
  [new RegExp(`${BEFORE}\\s*除以${AFTER}`, 'g'), ' / '],
  [new RegExp(`${BEFORE}\\s*(?:加上|加)${AFTER}`, 'g'), ' + '],
  [new RegExp(`${BEFORE}\\s*(?:减去|减)${AFTER}`, 'g'), ' - '],
];

/** Symbols people type that mathjs spells differently. */
function normalizeSymbols(text: string): string {
  return (
    text
      // Full-width digits, parentheses and operators become ASCII.
      .normalize('NFKC')
      .replace(/[×✕✖⋅·]/g, '*')
      .replace(/÷/g, '/')
      .replace(/[−–—]/g, '-')
      .replace(/\*\*/g, '^')
      // 1,000,000 → 1000000, but "1, 2" and "3,5" are left alone.
      .replace(/\d{1,3}(?:,\d{3})+(?!\d)/g, (n) => n.replace(/,/g, ''))
  );
}

const RUN = /(?:sqrt(?=\()|\bmod\b|[\d.+\-*/^%()!\s])+/g;
const OPERATION = /\d[%!]?\s*(?:[-+*/^]|mod)\s*[-\d(s]|sqrt\(|\d!|\d%\s*\*/;
const DATE = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}$/;

/** Trims a run to a balanced expression: no operator at the ends, no parenthesis left open or unopened. */
function trimRun(run: string): string {
  let text = run.trim();
  for (;;) {
    const before = text;
    text = text
      .replace(/^[^\d(s-]+/, '')
      .replace(/^-(?![\d(s])/, '')
      .replace(/[^\d)%!]+$/, '')
      .trim();
    const open = (text.match(/\(/g) ?? []).length;
    const close = (text.match(/\)/g) ?? []).length;
    if (close > open && text.endsWith(')')) text = text.slice(0, -1);
    else if (open > close && text.startsWith('(')) text = text.slice(1);
    else if (close > open && text.startsWith(')')) text = text.slice(1);
    else if (open > close && /\(\s*[^()]*$/.test(text)) text = text.slice(0, text.lastIndexOf('('));
    if (text === before) return text;
  }
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The arithmetic a question asks for, as calculator expressions: `What is (15 + 7) * 3?` →
 * `["(15 + 7) * 3"]`, `计算 三加五乘以二` → `["3 + 5 * 2"]`, `15% of 80` → `["15% * 80"]`. Reads
 * parentheses, powers, decimals, percentages, `×`/`÷`, spoken operators in English and Chinese, and
 * Chinese numerals. Each separate expression in the question is one entry.
 */
export function findExpressions(question: string): string[] {
  // 百分之二十 is 20%: read before the numerals, or its 百 would be taken for a hundred.
  let text = normalizeSymbols(question).replace(
    /百分之([零〇一二两三四五六七八九十百千万亿点]+|\d+(?:\.\d+)?)/g,
    '$1%',
  );
  text = arabicNumerals(text);
  for (const [pattern, replacement] of WORDS) text = text.replace(pattern, replacement);
  const found: string[] = [];
  for (const match of text.matchAll(RUN)) {
    const expression = trimRun(match[0]).replace(/\s+/g, ' ');
    if (OPERATION.test(expression) && balanced(expression) && !DATE.test(expression)) found.push(expression);
  }
  return found;
}
