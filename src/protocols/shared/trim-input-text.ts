/**
 * The rules for the text around a plain-text action input, kept in one place because the docs state
 * them (docs/parsing.md, "Commentary after the input").
 */

/** Words that make a line prose rather than code or a value. */
const PROSE_WORDS = /[\p{L}]{2,}/gu;
const CODE_CHARS = /[=;{}<>|&$]|^\s*(?:import|from|def|const|let|var|SELECT|UPDATE|INSERT|DELETE|WITH)\b/;

/**
 * Drops commentary after a plain-text input, by two rules:
 * 1. A single-line input followed by a blank line and a paragraph of prose is the first line
 *    (unless that line ends in `,` or `:`, which announces its continuation, as in a letter).
 * 2. A parenthetical ending a single-line input, after a space, is commentary when it reads as prose:
 *    at least three words and no operator or digit-only content (`2 * (3 + 4)`, `Jaguar (animal)` stay).
 * Returns the text unchanged otherwise.
 */
export function dropCommentary(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  // Cheap exit for the common case: one line that does not end in a parenthesis.
  if (last !== 41 /* ) */ && last !== 0xff09 /* ） */ && last !== 46 && last !== 0x3002 && !text.includes('\n\n')) {
    return text;
  }
  const paragraph = /^([^\n]+)\n[ \t]*\n([\s\S]+)$/.exec(text);
  if (paragraph) {
    const [, first, rest] = paragraph;
    if (!/[,:，：]\s*$/.test(first) && isProse(rest.split('\n', 1)[0])) return dropParenthetical(first.trim());
    return text;
  }
  return text.includes('\n') ? text : dropParenthetical(text);
}

function dropParenthetical(line: string): string {
  const match = /^(.*\S)\s+[(（]([^()（）]+)[)）][.。]?$/u.exec(line);
  if (!match) return line;
  const inner = match[2];
  if (/[=+*/<>^%]/.test(inner) || (inner.match(PROSE_WORDS) ?? []).length < 3) return line;
  return match[1];
}

/** A line that reads as a sentence: starts with a capital, a CJK character or `(`, has words, is not code. */
function isProse(line: string): boolean {
  const text = line.trim();
  if (!/^[\p{Lu}\p{Lo}(（*_]/u.test(text) || CODE_CHARS.test(text)) return false;
  if (/\p{Script=Han}/u.test(text)) return text.length >= 4;
  return (text.match(PROSE_WORDS) ?? []).length >= 3;
}

const QUOTE_START = "`“‘'「";

/**
 * The text inside matching backticks (one to three), typographic quotes or single quotes around the
 * whole input; undefined when it is not quoted. Double quotes are JSON strings, decoded elsewhere.
 */
export function unquote(text: string): string | undefined {
  if (!QUOTE_START.includes(text[0])) return undefined;
  const match = /^(?:(`{1,3})([^`]+)\1|“([^”]*)”|‘([^’]*)’|'([^']*)'|「([^」]*)」)$/u.exec(text);
  if (!match) return undefined;
  const inner = (match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? '').trim();
  return inner === '' ? undefined : inner;
}
