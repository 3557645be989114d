import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../core/index.js';
import { resolveInRoot } from '../tools/node.js';
import type { Skill } from './skill.js';

/** The frontmatter fields the Agent Skills specification defines. */
const FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const NAME = /^[\p{Ll}\p{N}]+(?:-[\p{Ll}\p{N}]+)*$/u;
/** Files of a skill read whole; past this they are cut with a note. */
const MAX_FILE_CHARS = 100_000;
const MAX_LISTED_FILES = 200;

type SkillData = Omit<Skill, 'files' | 'readFile'>;

const invalid = (file: string, problem: string) =>
  new ConfigError({ message: `Invalid skill ${file}: ${problem} (see https://agentskills.io/specification).` });

/**
 * Reads a `SKILL.md` text and checks its frontmatter against the Agent Skills specification: `name`
 * (1–64 lowercase letters, digits and single hyphens, the same as the folder's name) and `description`
 * (1–1024 characters) are required; `license`, `compatibility` (≤ 500 characters), `metadata` (string
 * values) and `allowed-tools` (space-separated) are optional; any other field is refused. Throws a
 * `ConfigError` naming the file and the problem.
 */
export function parseSkillMarkdown(text: string, where: { file: string; folder: string }): SkillData {
  const { file, folder } = where;
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) throw invalid(file, 'it must start with YAML frontmatter between two "---" lines');
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch (error) {
    throw invalid(file, `its frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw invalid(file, 'its frontmatter must be a mapping');
  const fields = data as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !FIELDS.has(k));
  if (unknown.length)
    throw invalid(file, `unknown frontmatter field "${unknown[0]}"; allowed: ${[...FIELDS].join(', ')}`);
  const { name, description, license, compatibility, metadata } = fields;
  if (typeof name !== 'string' || name.length === 0) throw invalid(file, '"name" is required');
  if (name.length > 64 || !NAME.test(name)) {
    throw invalid(
      file,
      `"name" must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with one (got "${name}")`,
    );
  }
  if (name !== folder) throw invalid(file, `"name" must match its folder's name "${folder}" (got "${name}")`);
  if (typeof description !== 'string' || !description.trim()) throw invalid(file, '"description" is required');
  if (description.length > 1024)
    throw invalid(file, `"description" must be at most 1024 characters (got ${description.length})`);
  if (license !== undefined && typeof license !== 'string') throw invalid(file, '"license" must be a string');
  if (compatibility !== undefined && (typeof compatibility !== 'string' || compatibility.length > 500)) {
    throw invalid(file, '"compatibility" must be a string of at most 500 characters');
  }
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Object.values(metadata).some((v) => typeof v !== 'string'))
  ) {
    throw invalid(file, '"metadata" must map names to strings');
  }
  const allowed = fields['allowed-tools'];
  if (allowed !== undefined && typeof allowed !== 'string') {
    throw invalid(file, '"allowed-tools" must be a space-separated string of tool names');
  }
  return {
    name,
    description: description.trim(),
    ...(allowed ? { allowedTools: allowed.split(/[\s,]+/).filter(Boolean) } : {}),
    ...(license ? { license } : {}),
    ...(compatibility ? { compatibility } : {}),
    ...(metadata ? { metadata: metadata as Record<string, string> } : {}),
    body: text.slice(match[0].length).trim(),
    file,
  };
}

/** The skill's files, relative to its folder, symbolic links not followed. */
async function listFiles(root: string, dir = '', out: string[] = []): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= MAX_LISTED_FILES) break;
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await listFiles(root, rel, out);
    else if (entry.isFile() && rel !== 'SKILL.md') out.push(rel);
  }
  return out;
}

/** Reads a file of the skill, confined to its folder like the file tools: no `..`, no absolute paths, no link out. */
function fileReader(root: string) {
  return async (requested: string): Promise<string> => {
    if (path.isAbsolute(requested) || /^[a-zA-Z]:/.test(requested)) {
      throw new Error(
        `The path "${requested}" is absolute; give a path inside the skill's folder, e.g. references/guide.md.`,
      );
    }
    const resolved = await resolveInRoot(root, requested);
    if (!resolved.ok) throw new Error(resolved.reason.replace('root folder', "skill's folder"));
    const info = await stat(resolved.path).catch(() => undefined);
    if (!info?.isFile()) throw new Error(`The skill has no file "${requested}".`);
    const text = await readFile(resolved.path, 'utf8');
    return text.length > MAX_FILE_CHARS
      ? `${text.slice(0, MAX_FILE_CHARS)}\n[cut at ${MAX_FILE_CHARS} characters]`
      : text;
  };
}

/** Loads the skill in `folder` (which holds a SKILL.md). */
async function loadSkill(folder: string): Promise<Skill> {
  const file = path.join(folder, 'SKILL.md');
  const data = parseSkillMarkdown(await readFile(file, 'utf8'), { file, folder: path.basename(folder) });
  return { ...data, files: await listFiles(folder), readFile: fileReader(folder) };
}

const hasSkillFile = (folder: string) =>
  stat(path.join(folder, 'SKILL.md')).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Loads Agent Skills from folders: each folder is a skill (it holds a `SKILL.md`) or holds skills (its
 * subfolders that do). Frontmatter is checked against the specification; a bad one throws a `ConfigError`
 * naming the file, as do two skills of one name. Nothing in a skill is run: scripts are files to read.
 *
 * @example
 * const skills = await loadSkills('./skills');
 * const agent = new Agent({ model, skills });
 */
export async function loadSkills(folders: string | readonly string[]): Promise<Skill[]> {
  const skills: Skill[] = [];
  for (const folder of typeof folders === 'string' ? [folders] : folders) {
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw new ConfigError({ message: `The skills folder ${folder} does not exist.` });
    if (await hasSkillFile(folder)) {
      skills.push(await loadSkill(folder));
      continue;
    }
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const sub = path.join(folder, entry.name);
      if (entry.isDirectory() && (await hasSkillFile(sub))) skills.push(await loadSkill(sub));
    }
  }
  const seen = new Map<string, string>();
  for (const skill of skills) {
    const other = seen.get(skill.name);
    if (other) throw new ConfigError({ message: `Two skills are named "${skill.name}": ${other} and ${skill.file}.` });
    seen.set(skill.name, skill.file);
  }
  return skills;
}
