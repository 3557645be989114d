import { parse as parseYaml } from 'yaml';
import type { Skill } from './skill.js';

/** What a `SKILL.md` says of itself, before its folder's files are listed. */
export type SkillData = Omit<Skill, 'files' | 'readFile'>;

/**
 * A rule of the Agent Skills specification that a `SKILL.md` breaks. A `warning` is read past the way the
 * reference clients read it (an over-long description is kept, an unknown field is ignored); an `error` leaves
 * nothing to load (no frontmatter, no description), so the skill is skipped.
 */
export interface SkillProblem {
  severity: 'warning' | 'error';
  message: string;
}

export interface SkillReading {
  /** The skill, when it can be used at all (possibly with warnings). */
  skill?: SkillData;
  problems: SkillProblem[];
}

/** The frontmatter fields the Agent Skills specification defines. */
const FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const NAME = /^[\p{Ll}\p{N}]+(?:-[\p{Ll}\p{N}]+)*$/u;
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Strict YAML refuses a plain value with `: ` inside (`description: Use when: the user asks`), the most common
 * slip in hand-written skills. Reference clients read such a line as one string; so do we, by quoting each
 * top-level plain value that holds one and parsing again.
 */
function quotePlainValues(yaml: string): string {
  return yaml.replace(/^([A-Za-z][\w-]*):[ \t]+(?!["'|>[{&*!])(.*:[ \t].*)$/gm, (_, key: string, value: string) => {
    return `${key}: ${JSON.stringify(value.trim())}`;
  });
}

function readFrontmatter(yaml: string, problems: SkillProblem[]): Record<string, unknown> | undefined {
  let data: unknown;
  try {
    data = parseYaml(yaml);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    try {
      data = parseYaml(quotePlainValues(yaml));
      problems.push({ severity: 'warning', message: `its frontmatter is not valid YAML (${reason}); read leniently` });
    } catch {
      data = readLines(yaml);
      if (!Object.keys(data as object).length) {
        problems.push({ severity: 'error', message: `its frontmatter is not valid YAML: ${reason}` });
        return undefined;
      }
      problems.push({
        severity: 'warning',
        message: `its frontmatter is not valid YAML (${reason}); read line by line`,
      });
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    problems.push({ severity: 'error', message: 'its frontmatter must be a mapping' });
    return undefined;
  }
  return data as Record<string, unknown>;
}

/**
 * The frontmatter read line by line, when even the lenient YAML reading fails (a description starting with
 * `**`, a quote left open over several lines): each top-level `key: value` with the lines below it that are
 * not keys, a value's enclosing quotes taken off.
 */
function readLines(yaml: string): Record<string, unknown> {
  const fields: Record<string, string> = {};
  let key: string | undefined;
  for (const line of yaml.split(/\r?\n/)) {
    const field = /^([A-Za-z][\w-]*):(?:[ \t]+(.*))?$/.exec(line);
    if (field) {
      key = field[1];
      fields[key] = field[2] ?? '';
    } else if (key !== undefined) fields[key] += `\n${line}`;
  }
  for (const [k, value] of Object.entries(fields)) {
    const text = value.trim();
    const quote = text[0] === '"' || text[0] === "'" ? text[0] : undefined;
    fields[k] = quote ? text.slice(1, text.endsWith(quote) && text.length > 1 ? -1 : undefined).trim() : text;
  }
  return fields;
}

/**
 * The first paragraph of prose in a markdown body (not a heading, comment, fence, table or image), on one
 * line: what Claude Code takes as the description of a skill that has none.
 */
function firstParagraph(markdown: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const prose = !fenced && line !== '' && !/^(```|~~~|#|<!--|<\/?[A-Za-z]|!\[|\||---|===)/.test(line);
    if (prose) lines.push(line);
    else if (lines.length) break;
  }
  const text = lines.join(' ');
  return text.length > 1024 ? `${text.slice(0, 1023)}…` : text;
}

/** `name`: the folder's name stands in when it is missing; a name off the rules is kept, with a warning. */
function readName(value: unknown, folder: string, warn: (message: string) => void): string {
  if (value === undefined || value === null || value === '') {
    warn(`"name" is required; the folder's name "${folder}" is used`);
    return folder;
  }
  const name = String(value);
  if (typeof value !== 'string') warn(`"name" must be a string (got ${JSON.stringify(value)})`);
  if (name.length > 64 || !NAME.test(name)) {
    warn(
      `"name" must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one (got "${name}")`,
    );
  }
  if (name !== folder) warn(`"name" must match its folder's name "${folder}" (got "${name}")`);
  return name;
}

/** `metadata` maps names to strings; a number or a flag is kept as its text, anything deeper as JSON. */
function readMetadata(value: unknown, warn: (message: string) => void): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    warn('"metadata" must map names to strings; it is ignored');
    return undefined;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.some(([, v]) => typeof v !== 'string')) warn('"metadata" must map names to strings');
  return Object.fromEntries(entries.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** `allowed-tools` is space-separated; a YAML list (as Claude Code writes it) is read too. */
function readAllowedTools(value: unknown, warn: (message: string) => void): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    warn('"allowed-tools" should be a space-separated string of tool names (got a list)');
    return value.map(String).filter(Boolean);
  }
  if (typeof value !== 'string') {
    warn('"allowed-tools" must be a space-separated string of tool names; it is ignored');
    return undefined;
  }
  return value.split(/[\s,]+/).filter(Boolean);
}

/** An optional text field: kept when it is text (over its limit with a warning), ignored otherwise. */
function readText(field: string, value: unknown, limit: number, warn: (message: string) => void): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') {
    warn(`"${field}" must be a string; it is ignored`);
    return undefined;
  }
  const text = String(value);
  if (text.length > limit) warn(`"${field}" must be at most ${limit} characters (got ${text.length})`);
  return text;
}

/**
 * Reads a `SKILL.md` text against the Agent Skills specification and says every rule it breaks. It never
 * throws: a skill with only warnings is returned as the reference clients read it, one with an error is not.
 */
export function readSkillMarkdown(text: string, where: { file: string; folder: string }): SkillReading {
  const problems: SkillProblem[] = [];
  const warn = (message: string) => problems.push({ severity: 'warning', message });
  const match = FRONTMATTER.exec(text);
  // Without frontmatter, as Claude Code reads one: its folder's name, and its first paragraph as the description.
  if (!match && !firstParagraph(text)) {
    problems.push({ severity: 'error', message: 'it must start with YAML frontmatter between two "---" lines' });
    return { problems };
  }
  if (!match) warn('it must start with YAML frontmatter between two "---" lines; read without it');
  const fields = match ? readFrontmatter(match[1], problems) : {};
  if (!fields) return { problems };
  const body = (match ? text.slice(match[0].length) : text.replace(/^\uFEFF/, '')).trim();
  const unknown = Object.keys(fields).filter((k) => !FIELDS.has(k));
  if (unknown.length) {
    const list = unknown.map((k) => `"${k}"`).join(', ');
    warn(
      `unknown frontmatter field${unknown.length > 1 ? 's' : ''} ${list} (ignored); allowed: ${[...FIELDS].join(', ')}`,
    );
  }
  const name = readName(fields.name, where.folder, warn);
  let description = typeof fields.description === 'string' ? fields.description.trim() : '';
  if (!description) {
    description = firstParagraph(body);
    if (!description) {
      problems.push({ severity: 'error', message: '"description" is required' });
      return { problems };
    }
    if (match) warn('"description" is required; the first paragraph of the body is used');
  }
  if (description.length > 1024) warn(`"description" must be at most 1024 characters (got ${description.length})`);
  const license = readText('license', fields.license, Number.POSITIVE_INFINITY, warn);
  const compatibility = readText('compatibility', fields.compatibility, 500, warn);
  const metadata = readMetadata(fields.metadata, warn);
  const allowedTools = readAllowedTools(fields['allowed-tools'], warn);
  const skill: SkillData = {
    name,
    description,
    ...(allowedTools?.length ? { allowedTools } : {}),
    ...(license ? { license } : {}),
    ...(compatibility ? { compatibility } : {}),
    ...(metadata ? { metadata } : {}),
    body,
    file: where.file,
  };
  return { skill, problems };
}
