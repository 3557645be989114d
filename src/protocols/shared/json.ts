/**
 * JSON inside a reply: where it sits (fenced or in prose, cut off or whole) and the checks the
 * readers make on it. The lenient parse itself is core's `parseJsonLenient`.
 */

/** Where a JSON value sits inside a reply. */
export interface JsonSpan {
  /** The JSON text (possibly incomplete when `truncated`). */
  json: string;
  /** The span ran to the end of the reply without closing its brackets or strings. */
  truncated: boolean;
  /** Truncated in the middle of a string (a value or key was cut, so it cannot be trusted). */
  cutInString: boolean;
  /** Index in the reply where the span starts. */
  start: number;
  /** Index just after the span. */
  end: number;
}

const JSON_FENCES = ['json', 'json5', 'jsonc', 'javascript', 'js', 'tool_call', 'tool_code'];
const FENCE = /```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;

/**
 * Finds the first JSON object or array in a reply: inside a ``` fence when there is one that
 * holds JSON, else the first balanced `{…}` or `[…]` in the prose. Strings and escapes are
 * respected, so braces inside strings do not count. Returns undefined when there is no `{` or `[`.
 */
export function extractJson(text: string): JsonSpan | undefined {
  for (const fence of text.matchAll(FENCE)) {
    const lang = fence[1].toLowerCase();
    if (lang && !JSON_FENCES.includes(lang)) continue;
    const opener = firstOpener(fence[2]);
    if (opener < 0) continue;
    // Scan the whole text from the opener, not just the fence body: a string value may itself
    // contain ``` (a code block in action_input), which would end the fence early.
    const bodyStart = (fence.index ?? 0) + fence[0].indexOf('\n') + 1;
    return scanFrom(text, bodyStart + opener);
  }
  return scanFrom(text, firstOpener(maskOtherFences(text)));
}

/** The text with the bodies of code fences in other languages blanked out (offsets kept). */
function maskOtherFences(text: string): string {
  return text.replace(FENCE, (block, lang: string) =>
    lang && !JSON_FENCES.includes(lang.toLowerCase()) ? ' '.repeat(block.length) : block,
  );
}

/** The first `{` (or a `[` whose next non-space character starts a JSON value). */
function firstOpener(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') return i;
    if (c === '[' && /^\[\s*[{["\d\-tfn\]]/.test(text.slice(i, i + 40))) return i;
  }
  return -1;
}

function scanFrom(text: string, start: number): JsonSpan | undefined {
  if (start < 0) return undefined;
  const stack: string[] = [];
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || (c === "'" && !/\w/.test(text[i - 1] ?? ''))) quote = c;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      // A mismatched closer ends the span too; jsonrepair gets to judge it.
      if (stack.pop() !== c || stack.length === 0) return whole(text, start, i + 1);
    }
  }
  return { json: text.slice(start).trimEnd(), truncated: true, cutInString: quote !== '', start, end: text.length };
}

function whole(text: string, start: number, end: number): JsonSpan {
  return { json: text.slice(start, end), truncated: false, cutInString: false, start, end };
}

/** True for a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a raw newline or tab sits inside a JSON string, which strict JSON forbids. */
export function hasRawControlInString(json: string): boolean {
  let quoted = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (quoted && c === 92 /* \ */) i++;
    else if (c === 34 /* " */) quoted = !quoted;
    else if (quoted && c < 32) return true;
  }
  return false;
}
