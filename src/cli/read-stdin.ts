import { fstatSync } from 'node:fs';
import { ConfigError } from '../core/index.js';

/** Where `readQuestion` looks. */
export interface QuestionSource {
  /** The question argument: text, `-` for stdin, or none. */
  argument?: string;
  stdin?: NodeJS.ReadStream;
}

/** All of stdin as text. */
export async function readStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * True when something was piped or redirected into stdin (`echo q | thinkflow run`, `< file`). A socket
 * or terminal is not taken for input: a parent process that leaves stdin open would make us wait forever.
 */
function stdinIsPiped(stdin: NodeJS.ReadStream): boolean {
  if (stdin.isTTY) return false;
  try {
    const stat = fstatSync((stdin as { fd?: number }).fd ?? 0);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

const NO_QUESTION =
  'No question given. Pass one, `thinkflow run "What is 2 + 2?"`, or pipe it: `echo "What is 2 + 2?" | thinkflow run`.';

/**
 * The question for `run`, as `llm` and other CLIs read it: the argument; or stdin when the argument is
 * `-` or missing; and with both an argument and piped text, the piped text appended as context.
 */
export async function readQuestion(source: QuestionSource = {}): Promise<string> {
  const stdin = source.stdin ?? process.stdin;
  const { argument } = source;
  if (argument === '-' || (argument === undefined && !stdin.isTTY)) {
    const text = (await readStdin(stdin)).trim();
    if (!text) throw new ConfigError({ message: `stdin was empty. ${NO_QUESTION}` });
    return text;
  }
  if (argument === undefined || !argument.trim()) throw new ConfigError({ message: NO_QUESTION });
  if (!stdinIsPiped(stdin)) return argument;
  const context = (await readStdin(stdin)).trim();
  return context ? `${argument}\n\n${context}` : argument;
}
