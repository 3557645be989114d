import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A ```ts (or ```typescript) block of README.md or docs/*.md, with what the HTML comments right above it say.
 *
 * Two markers, each an HTML comment between the previous block or paragraph and the fence (blank lines allowed):
 * - `<!-- snippet: typecheck-only -->`: compiled, never run (it needs an API key, a GGUF file, an MCP server...).
 * - `<!-- snippet-prelude` … `-->`: TypeScript compiled and run before the snippet, hidden from readers
 *   (the `agent` or `model` a fragment uses).
 *
 * And one convention inside a block: `console.log(x); // text` claims that the run prints `text`
 * (put a comment that is not output on the line above instead).
 */
export interface DocSnippet {
  /** `README.md:42`: the file and the line of the opening fence. */
  where: string;
  code: string;
  prelude: string;
  run: boolean;
  /**
   * What the snippet says it prints: the comment ending a line that starts with `console.log(…);`.
   * A run must print it (`…` in it stands for any text).
   */
  claims: string[];
}

const FENCE = /^```(ts|typescript)\s*$/;
const TYPECHECK_ONLY = '<!-- snippet: typecheck-only -->';
const PRELUDE_OPEN = '<!-- snippet-prelude';
const CLAIM = /^\s*console\.log\(.*\);\s+\/\/ (.+)$/;

/** The markdown files whose snippets must compile and run: README.md and every docs/*.md. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs];
}

/** Every TypeScript block of one markdown file, in order. */
export function extractSnippets(path: string, root: string): DocSnippet[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const snippets: DocSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`${relative(root, path)}:${i + 1}: a code block that is never closed`);
    const { prelude, run } = markersAbove(lines, i);
    const code = lines.slice(i + 1, end);
    snippets.push({
      where: `${relative(root, path)}:${i + 1}`,
      code: code.join('\n'),
      prelude,
      run,
      claims: code.flatMap((line) => CLAIM.exec(line)?.[1] ?? []),
    });
    i = end;
  }
  return snippets;
}

/** Reads the HTML comments between the fence at `fence` and the text above it. */
function markersAbove(lines: string[], fence: number): { prelude: string; run: boolean } {
  let prelude = '';
  let run = true;
  let i = fence - 1;
  while (i >= 0) {
    const line = lines[i].trim();
    if (line === '') {
      i--;
    } else if (line === TYPECHECK_ONLY) {
      run = false;
      i--;
    } else if (line === '-->') {
      const open = lines.lastIndexOf(PRELUDE_OPEN, i);
      if (open === -1) break;
      prelude = lines.slice(open + 1, i).join('\n');
      i = open - 1;
    } else {
      break;
    }
  }
  return { prelude, run };
}

/** Whether `output` shows `claim`: its parts between `…` appear in this order. */
export function printsClaim(output: string, claim: string): boolean {
  let from = 0;
  for (const part of claim.split('…').map((p) => p.trim())) {
    const at = output.indexOf(part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return true;
}
