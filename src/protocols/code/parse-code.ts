import type { ParsedStep } from '../../core/index.js';
import { keywordAt } from '../shared/keywords.js';

/** The tool a code step calls: the program runs there. */
export const CODE_TOOL = 'run_code';

// A fence and its language tag (any, or none); the body runs to the closing fence or the reply's end
// (a reply cut by a stop sequence). `<code>` tags are read too: some models learnt them elsewhere.
const FENCE = /```[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;
const CODE_TAG = /<code>([\s\S]*?)(?:<\/code>|$)/g;
const SCRIPT = new Set(['', 'js', 'javascript', 'ts', 'typescript', 'mjs', 'jsx', 'tsx', 'node', 'es6', 'ecmascript']);
const OTHER_CODE = new Set(['py', 'python', 'python3', 'bash', 'sh', 'shell']);
const BARE_FINAL = /^[ \t]*final_answer\s*\(/m;

/**
 * Reads a CodeAct reply: a thought, then one fenced JavaScript block (no tag, ```js, ```javascript,
 * ```ts and kin; several blocks are run as one program, in order). The block becomes a call of
 * `run_code`; a bare `final_answer(…)` line outside a fence counts as code. A reply without code is
 * `invalid`, with a reason that says how to write one. Never throws.
 *
 * @example
 * parseCodeAction('Thought: add them\n```js\nfinal_answer(1 + 2)\n```');
 * // { type: 'action', thought: 'add them', tool: 'run_code', input: { code: 'final_answer(1 + 2)' } }
 */
export function parseCodeAction(text: string): ParsedStep {
  const blocks: string[] = [];
  let first = -1;
  let foreign: string | undefined;
  for (const match of text.matchAll(FENCE)) {
    const language = match[1].toLowerCase();
    if (!SCRIPT.has(language)) {
      if (OTHER_CODE.has(language)) foreign ??= language;
      continue;
    }
    if (first < 0) first = match.index;
    if (match[2].trim()) blocks.push(match[2].trimEnd());
  }
  if (blocks.length === 0) {
    for (const match of text.matchAll(CODE_TAG)) {
      if (first < 0) first = match.index;
      if (match[1].trim()) blocks.push(match[1].trim());
    }
  }
  if (blocks.length === 0) {
    const bare = BARE_FINAL.exec(text);
    if (bare) {
      first = bare.index;
      blocks.push(text.slice(bare.index).trim());
    }
  }
  if (blocks.length === 0) {
    const reason = foreign
      ? `The code block is ${foreign}; only JavaScript runs here.`
      : 'The reply has no ```js code block.';
    return {
      type: 'invalid',
      reason: `${reason} Write a thought, then one \`\`\`js block that calls tools with await tools.<name>(input), and call final_answer(value) in it when you have the answer.`,
      raw: text,
    };
  }
  const thought = first > 0 ? withoutThoughtKeyword(text.slice(0, first).trimStart()).trim() : '';
  return {
    type: 'action',
    ...(thought ? { thought } : {}),
    tool: CODE_TOOL,
    input: { code: blocks.join('\n') },
  };
}

/** The text without the Thought keyword it opens with (`Thought:`, `**思考**：`). */
function withoutThoughtKeyword(text: string): string {
  const mark = keywordAt(text);
  return mark?.keyword === 'thought' ? text.slice(mark.end) : text;
}
