/**
 * The simple commands a bash script runs, read the way bash reads them, so a policy judges what runs
 * and not the text: every command between `;`, `&&`, `||`, `|`, `&`, newlines, in subshells, groups,
 * `$(…)`, backticks and `<(…)`, in the script of `bash -c`/`sh -c`, in `eval` of literal text, behind
 * `env`, `command`, `exec`, `xargs`, `timeout`, `nice`, `nohup`, `sudo`, `find -exec`, and through
 * aliases the script defines. What cannot be known before it runs (a command name from a variable,
 * `eval` of one, an alias of one) is reported as `unknowable` rather than guessed.
 */

/** One simple command: its words after quote removal (assignments and redirections dropped). */
export type SimpleCommand = string[];

/** The commands a script runs, and why some of it cannot be known before it runs. */
export interface ParsedScript {
  commands: SimpleCommand[];
  unknowable: string[];
}

/** A word and whether an expansion (`$X`, `$(…)`, a glob is fine) decides its text at run time. */
interface Word {
  text: string;
  dynamic: boolean;
}

const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'time',
  'coproc',
  'esac',
]);
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'ash', 'busybox']);
// Wrappers that run the rest of their words as a command; each with its options that take a value.
const WRAPPERS: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  nice: new Set(['-n', '--adjustment']),
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-U']),
  doas: new Set(['-u', '-C']),
  setsid: new Set(),
  stdbuf: new Set(['-i', '-o', '-e']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  xargs: new Set(['-I', '-n', '-P', '-d', '-L', '-a', '-E', '-s', '--delimiter', '--max-args', '--max-procs']),
  time: new Set(['-f', '-o']),
  watch: new Set(['-n', '-d']),
};

/**
 * Parses a script into the simple commands it runs.
 *
 * @example
 * parseScript('ls; echo $(rm -rf /) && bash -c "sudo rm x"').commands;
 * // [['ls'], ['rm', '-rf', '/'], ['echo', ''], ['rm', 'x']] (in the order they were found)
 */
export function parseScript(script: string, aliases = new Map<string, Word[]>(), depth = 0): ParsedScript {
  const out: ParsedScript = { commands: [], unknowable: [] };
  if (depth > 16) {
    out.unknowable.push('the script nests too deep to read');
    return out;
  }
  const nested = (inner: string) => merge(out, parseScript(inner, aliases, depth + 1));
  let words: Word[] = [];
  const flush = () => {
    if (words.length > 0) resolveCommand(words, out, aliases, depth);
    words = [];
  };
  for (const token of tokenize(script, nested)) {
    if (token.type === 'op') {
      flush();
      continue;
    }
    // A keyword opens or closes a block only where a command starts.
    if (words.length === 0 && !token.word.dynamic && KEYWORDS.has(token.word.text)) continue;
    if (words.length === 0 && !token.word.dynamic && (token.word.text === 'for' || token.word.text === 'case')) {
      words.push(token.word);
      continue;
    }
    words.push(token.word);
  }
  flush();
  return out;
}

function merge(into: ParsedScript, from: ParsedScript): void {
  into.commands.push(...from.commands);
  into.unknowable.push(...from.unknowable);
}

/** Turns one simple command's words into commands: assignments dropped, wrappers and shells unwrapped. */
function resolveCommand(words: Word[], out: ParsedScript, aliases: Map<string, Word[]>, depth: number): void {
  let rest = words;
  while (rest.length > 0 && !rest[0].dynamic && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(rest[0].text)) rest = rest.slice(1);
  if (rest.length === 0) return;
  const [head, ...args] = rest;
  // A loop's or a case's head, or a function's name: no command runs there (their bodies are read on).
  if (['for', 'case', 'select', 'function'].includes(head.text) || args[0]?.text === '()') return;
  if (head.dynamic) {
    out.unknowable.push(`the command name ${JSON.stringify(head.text)} comes from an expansion`);
    return;
  }
  const alias = aliases.get(head.text);
  if (alias && depth < 16) {
    aliases.delete(head.text);
    resolveCommand([...alias, ...args], out, aliases, depth + 1);
    aliases.set(head.text, alias);
    return;
  }
  const name = head.text.slice(head.text.lastIndexOf('/') + 1);
  out.commands.push([head.text, ...args.map((w) => w.text)]);
  unwrap(name, args, { out, aliases, depth });
}

interface Reading {
  out: ParsedScript;
  aliases: Map<string, Word[]>;
  depth: number;
}

/** The commands a command runs in turn: a shell's `-c` script, `eval`'s text, a wrapper's command, `find -exec`'s. */
function unwrap(name: string, args: Word[], reading: Reading): void {
  const { out, aliases, depth } = reading;
  const again = (inner: Word[]) => resolveCommand(inner, out, aliases, depth + 1);
  const script = (text: Word | undefined, what: string) => {
    if (!text) return;
    if (text.dynamic) out.unknowable.push(`${what} runs text that comes from an expansion`);
    else merge(out, parseScript(text.text, aliases, depth + 1));
  };
  const joined = (words: Word[]): Word => ({
    text: words.map((w) => w.text).join(' '),
    dynamic: words.some((w) => w.dynamic),
  });
  if (name === 'alias') defineAliases(args, aliases, out);
  else if (name === 'eval') script(joined(args), 'eval');
  else if (name === 'busybox' && args[0] && !SHELLS.has(args[0].text)) again(args);
  else if (SHELLS.has(name)) {
    const inner = name === 'busybox' ? args.slice(1) : args;
    const flag = inner.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text));
    if (flag >= 0) script(inner[flag + 1], `${name} -c`);
  } else if (name === 'find') findExec(args, again);
  else if (WRAPPERS[name]) {
    const start = wrappedStart(name, args);
    if (start.script) script(args[start.index], 'env -S');
    else if (name === 'watch' && args[start.index]) script(joined(args.slice(start.index)), 'watch');
    else if (start.index < args.length) again(args.slice(start.index));
  }
}

/** Where a wrapper's command starts, past its options (and env's assignments, timeout's duration). */
function wrappedStart(name: string, args: Word[]): { index: number; script?: boolean } {
  const valued = WRAPPERS[name];
  let i = 0;
  while (i < args.length && args[i].text.startsWith('-') && args[i].text !== '-') {
    if (name === 'env' && (args[i].text === '-S' || args[i].text === '--split-string'))
      return { index: i + 1, script: true };
    i += valued.has(args[i].text) ? 2 : 1;
  }
  while (name === 'env' && i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i].text)) i++;
  return { index: name === 'timeout' ? i + 1 : i };
}

/** `alias r=rm` and friends: a literal value is remembered for later commands; any other is unknowable. */
function defineAliases(args: Word[], aliases: Map<string, Word[]>, out: ParsedScript): void {
  for (const arg of args) {
    const eq = arg.text.indexOf('=');
    if (eq <= 0) continue;
    if (arg.dynamic) {
      out.unknowable.push('alias defines a command from an expansion');
      continue;
    }
    const value: Word[] = [];
    for (const token of tokenize(arg.text.slice(eq + 1), () => {})) {
      if (token.type === 'op') {
        out.unknowable.push(`alias ${arg.text.slice(0, eq)} holds more than one command`);
        return;
      }
      value.push(token.word);
    }
    aliases.set(arg.text.slice(0, eq), value);
  }
}

/** The commands `find -exec`, `-execdir`, `-ok` and `-okdir` run. */
function findExec(args: Word[], again: (words: Word[]) => void): void {
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[i].text)) continue;
    const end = args.findIndex((w, j) => j > i && (w.text === ';' || w.text === '+'));
    again(args.slice(i + 1, end < 0 ? undefined : end));
    if (end > 0) i = end;
  }
}

type Token = { type: 'op'; op: string } | { type: 'word'; word: Word };

/** Splits a script into words and operators; calls `nested` with the text of each `$(…)`, backticks and `<(…)`. */
export function* tokenize(script: string, nested: (inner: string) => void): Generator<Token> {
  let i = 0;
  const n = script.length;
  let text = '';
  let dynamic = false;
  let inWord = false;
  // Here-documents whose bodies start after the current line ends.
  const heredocs: string[] = [];
  const emit = function* (): Generator<Token> {
    if (inWord) yield { type: 'word', word: { text, dynamic } };
    text = '';
    dynamic = false;
    inWord = false;
  };
  while (i < n) {
    const c = script[i];
    if (c === '\\') {
      if (script[i + 1] === '\n') i += 2;
      else {
        text += script[i + 1] ?? '';
        inWord = true;
        i += 2;
      }
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      text += script.slice(i + 1, end < 0 ? n : end);
      inWord = true;
      i = end < 0 ? n : end + 1;
    } else if (c === '"') {
      i = readDouble(
        script,
        i + 1,
        (part, isDynamic) => {
          text += part;
          dynamic ||= isDynamic;
        },
        nested,
      );
      inWord = true;
    } else if (c === '`') {
      const end = script.indexOf('`', i + 1);
      nested(script.slice(i + 1, end < 0 ? n : end).replace(/\\`/g, '`'));
      dynamic = inWord = true;
      i = end < 0 ? n : end + 1;
    } else if (c === '$') {
      i = readDollar(script, i, nested);
      dynamic = inWord = true;
    } else if ((c === '<' || c === '>') && script[i + 1] === '(') {
      const end = matchParen(script, i + 1);
      nested(script.slice(i + 2, end));
      dynamic = inWord = true;
      i = end + 1;
    } else if (c === '#' && !inWord) {
      while (i < n && script[i] !== '\n') i++;
    } else if (c === ' ' || c === '\t') {
      yield* emit();
      i++;
    } else if (c === '<' || c === '>' || (/[0-9]/.test(c) && !inWord && /^[0-9]+[<>]/.test(script.slice(i, i + 4)))) {
      yield* emit();
      const skipped = skipRedirection(script, i);
      if (skipped.heredoc !== undefined) heredocs.push(skipped.heredoc);
      i = skipped.end;
    } else if (c === '&' && script[i + 1] === '>') {
      yield* emit();
      i = skipRedirection(script, i + 1).end;
    } else if (c === '\n' && heredocs.length > 0) {
      yield* emit();
      yield { type: 'op', op: '\n' };
      i = skipHeredocs(script, i + 1, heredocs.splice(0));
    } else if (';&|\n(){}!'.includes(c) && !(c === '{' && inWord) && !(c === '}' && inWord) && !(c === '!' && inWord)) {
      yield* emit();
      const two = script.slice(i, i + 2);
      const op = ['&&', '||', ';;', '|&'].includes(two) ? two : c;
      i += op.length;
      if ((c === '{' || c === '}' || c === '!') && script[i] && !/[\s;]/.test(script[i])) {
        // `{a,b}` brace expansion or `!x`: part of a word, not an operator.
        text += c;
        inWord = true;
        continue;
      }
      yield { type: 'op', op };
    } else {
      text += c;
      inWord = true;
      i++;
    }
  }
  yield* emit();
}

/** Reads a double-quoted string from `i` (after the quote); returns the index after the closing quote. */
function readDouble(
  script: string,
  start: number,
  add: (part: string, dynamic: boolean) => void,
  nested: (inner: string) => void,
): number {
  let i = start;
  while (i < script.length && script[i] !== '"') {
    const c = script[i];
    if (c === '\\' && '"\\$`\n'.includes(script[i + 1] ?? '')) {
      add(script[i + 1], false);
      i += 2;
    } else if (c === '$') {
      i = readDollar(script, i, nested);
      add('', true);
    } else if (c === '`') {
      const end = script.indexOf('`', i + 1);
      nested(script.slice(i + 1, end < 0 ? script.length : end));
      add('', true);
      i = end < 0 ? script.length : end + 1;
    } else {
      add(c, false);
      i++;
    }
  }
  return i + 1;
}

/** Reads `$…` from `i`: `$(…)` is parsed as a script, `$((…))` is arithmetic, `${…}` and `$NAME` are skipped. */
function readDollar(script: string, i: number, nested: (inner: string) => void): number {
  const next = script[i + 1];
  if (next === '(' && script[i + 2] === '(') return matchParen(script, i + 1) + 1;
  if (next === '(') {
    const end = matchParen(script, i + 1);
    nested(script.slice(i + 2, end));
    return end + 1;
  }
  if (next === '{') {
    const end = script.indexOf('}', i + 2);
    return end < 0 ? script.length : end + 1;
  }
  if (next === "'") {
    const end = script.indexOf("'", i + 2);
    return end < 0 ? script.length : end + 1;
  }
  const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(script.slice(i + 1));
  return i + 1 + (name ? name[0].length : 0);
}

/** The index of the `)` matching the `(` at `open`, skipping quotes and nested parentheses. */
function matchParen(script: string, open: number): number {
  let depth = 0;
  for (let i = open; i < script.length; i++) {
    const c = script[i];
    if (c === '\\') i++;
    else if (c === "'") i = script.indexOf("'", i + 1) < 0 ? script.length : script.indexOf("'", i + 1);
    else if (c === '"') {
      while (++i < script.length && script[i] !== '"') if (script[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return script.length;
}

/** Skips a redirection (`2>&1`, `>> file`, `<<< word`, `<<EOF`) from `i`: the index after it, and a here-document's delimiter. */
function skipRedirection(script: string, start: number): { end: number; heredoc?: string } {
  let i = start;
  while (/[0-9]/.test(script[i] ?? '')) i++;
  const heredoc = script.startsWith('<<', i) && !script.startsWith('<<<', i);
  while ('<>&|-'.includes(script[i] ?? '') && i < start + 4) i++;
  while (script[i] === ' ' || script[i] === '\t') i++;
  const wordStart = i;
  // The target word (quotes kept together); `&1` was taken above.
  while (i < script.length && !/[\s;&|()<>]/.test(script[i])) {
    if (script[i] === "'" || script[i] === '"') {
      const end = script.indexOf(script[i], i + 1);
      i = end < 0 ? script.length : end + 1;
    } else i++;
  }
  return heredoc ? { end: i, heredoc: script.slice(wordStart, i).replace(/['"\\]/g, '') } : { end: i };
}

/** Skips the bodies of here-documents from the line at `start`; returns the index after the last delimiter line. */
function skipHeredocs(script: string, start: number, delimiters: string[]): number {
  let i = start;
  for (const delimiter of delimiters) {
    while (i < script.length) {
      const end = script.indexOf('\n', i);
      const line = script.slice(i, end < 0 ? script.length : end);
      i = end < 0 ? script.length : end + 1;
      if (line.replace(/^\t+/, '') === delimiter) break;
    }
  }
  return i;
}
