/** A tool's argument grammar, as GBNF text whose start rule is `root`. No `name` means any tool name. */
export interface ToolGrammar {
  name?: string;
  gbnf: string;
}

/**
 * Composes the GBNF of one ReAct reply: a `Thought:` line, then either `Action:` with a tool name and
 * an `Action Input:` matching that tool's argument grammar, or `Final Answer:` with free text.
 * Each tool grammar's rules are renamed apart so they can live in one grammar.
 */
export function reactGrammar(tools: readonly ToolGrammar[]): string {
  const rules: string[] = [];
  const actions = tools.map((tool, i) => {
    const prefix = `t${i}-`;
    rules.push(prefixRules(stripTrailingNewlines(tool.gbnf), prefix));
    const name =
      tool.name === undefined ? `${quote('Action: ')} tool-name ${quote('\n')}` : quote(`Action: ${tool.name}\n`);
    return `${name} ${quote('Action Input: ')} ${prefix}root`;
  });
  const final = `${quote('Final Answer: ')} answer`;
  return [
    `root ::= ${quote('Thought: ')} line ${quote('\n')} ( ${[...actions, final].join(' | ')} )`,
    'line ::= [^\\n]*',
    'answer ::= [^\\x00]*',
    'tool-name ::= [a-zA-Z0-9_-]+',
    ...rules,
  ].join('\n');
}

/** node-llama-cpp's JSON grammars end with newlines it uses as a stop signal; inside a larger grammar they must go. */
function stripTrailingNewlines(gbnf: string): string {
  return gbnf.replace(/\s*"(?:\\n)+"\s*\[\\n\]\*\s*$/m, '');
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Renames every rule defined in `gbnf` to `prefix + name`, leaving string literals and character classes alone. */
export function prefixRules(gbnf: string, prefix: string): string {
  const defined = new Set([...gbnf.matchAll(/^\s*([a-zA-Z0-9-]+)\s*::=/gm)].map((m) => m[1]));
  let out = '';
  let i = 0;
  while (i < gbnf.length) {
    const ch = gbnf[i];
    if (ch === '"' || ch === '[') {
      const close = ch === '"' ? '"' : ']';
      let j = i + 1;
      while (j < gbnf.length && gbnf[j] !== close) j += gbnf[j] === '\\' ? 2 : 1;
      out += gbnf.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const word = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(gbnf.slice(i, i + 200));
    if (word && !/[a-zA-Z0-9-]/.test(gbnf[i - 1] ?? '')) {
      out += defined.has(word[0]) ? prefix + word[0] : word[0];
      i += word[0].length;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}
