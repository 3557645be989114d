/**
 * Tool names and the names vendors accept. thinkflow's tools may be named as MCP allows (letters of any
 * script, digits, `_ - . /`, up to 128 characters: `github.create_issue`, `fs/read_file`, `查天气`);
 * each vendor API accepts fewer. This is the one mapping: a name a vendor refuses goes out under a
 * stable alias its rule accepts, and comes back as the user's name (providers map native calls,
 * the tool registry maps calls a model wrote in text with either spelling).
 */

/** A vendor's rule for function names. */
export interface ToolNameRule {
  /** What the vendor accepts. */
  pattern: RegExp;
  /** Its longest name. */
  maxLength: number;
  /** Characters it accepts besides ASCII letters, digits, `_` and `-` (kept in aliases when they are in the name). */
  extra?: string;
}

const OPENAI: ToolNameRule = { pattern: /^[a-zA-Z0-9_-]{1,64}$/, maxLength: 64 };

/**
 * The documented function-name rules of each API thinkflow speaks:
 * - `openai`: Chat Completions, Responses and OpenAI-compatible servers (vLLM, llama.cpp server, LM Studio…),
 *   `^[a-zA-Z0-9_-]{1,64}$`;
 * - `anthropic`: Messages API tools, `^[a-zA-Z0-9_-]{1,128}$`;
 * - `gemini`: function declarations start with a letter or `_`, then letters, digits, `_ . : -`, at most 64;
 * - `ollama`: passed to the model's template as is, held to OpenAI's rule since its models are trained on it;
 * - `llamacpp`: names inside a GBNF grammar for the json and react protocols, held to OpenAI's rule.
 */
export const TOOL_NAME_RULES = {
  openai: OPENAI,
  anthropic: { pattern: /^[a-zA-Z0-9_-]{1,128}$/, maxLength: 128 },
  gemini: { pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/, maxLength: 64, extra: '.:' },
  ollama: OPENAI,
  llamacpp: OPENAI,
} as const satisfies Record<string, ToolNameRule>;

/** The vendors whose name rules thinkflow knows. */
export type ToolNameVendor = keyof typeof TOOL_NAME_RULES;

/** FNV-1a, 32 bits, in base 36: a short stable suffix that keeps aliases apart. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * The name a vendor accepts for a tool: the name itself when its rule allows it, else a stable alias
 * that keeps the name's own ASCII letters readable and adds a hash of the whole name
 * (`github.create_issue` → `github_create_issue_1x9k2ab`, `查天气` → `tool_5kq1c0`).
 *
 * @example
 * wireToolName('github.create_issue', TOOL_NAME_RULES.openai); // 'github_create_issue_…'
 * wireToolName('github.create_issue', TOOL_NAME_RULES.gemini); // 'github.create_issue'
 */
export function wireToolName(name: string, rule: ToolNameRule): string {
  if (rule.pattern.test(name)) return name;
  const keep = new RegExp(`[^a-zA-Z0-9_\\-${(rule.extra ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}]+`, 'g');
  const ascii = name.replace(keep, '_').replace(/^[^a-zA-Z_]+|_+$/g, '');
  const suffix = hash(name);
  return `${(ascii || 'tool').slice(0, rule.maxLength - suffix.length - 1)}_${suffix}`;
}

/**
 * Every alias a tool may be called by on some vendor's wire (its name excluded). Worked out once per
 * name (each run's registry registers its tools): a frozen list from a bounded memo.
 */
export function toolNameAliases(name: string): readonly string[] {
  let aliases = ALIASES.get(name);
  if (aliases) return aliases;
  const made: string[] = [];
  for (const rule of Object.values(TOOL_NAME_RULES)) {
    const alias = wireToolName(name, rule);
    if (alias !== name && !made.includes(alias)) made.push(alias);
  }
  aliases = Object.freeze(made);
  if (ALIASES.size >= ALIASES_KEPT) ALIASES.clear();
  ALIASES.set(name, aliases);
  return aliases;
}
const ALIASES = new Map<string, readonly string[]>();
const ALIASES_KEPT = 10_000;
