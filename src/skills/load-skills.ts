import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../core/index.js';
import { resolveInRoot } from '../tools/node.js';
import { readSkillMarkdown, type SkillData } from './read-skill-markdown.js';
import { SKILL_SEARCH_DEPTH, type Skill, type SkillWarning } from './skill.js';
import { provideSkillKit } from './skill-kit.js';
import { SKILL_KIT } from './skill-tools.js';
import { AGENT_FOLDERS, qualifyTwins, searchedFolder } from './skill-twins.js';

export type { SkillWarning } from './skill.js';

const MAX_FILE_CHARS = 100_000;
const MAX_LISTED_FILES = 200;
/** Folders looked into below one given folder, at most (a home folder given by mistake is not walked whole). */
const MAX_FOLDERS = 20_000;
const invalid = (file: string, problem: string) =>
  new ConfigError({ message: `Invalid skill ${file}: ${problem} (see https://agentskills.io/specification).` });

/**
 * Reads a `SKILL.md` text and checks its frontmatter strictly against the Agent Skills specification:
 * `name` (1–64 lowercase letters, digits and single hyphens, the same as the folder's name) and `description`
 * (1–1024 characters) are required; `license`, `compatibility` (≤ 500 characters), `metadata` (string
 * values) and `allowed-tools` (space-separated) are optional; any other field is refused. Throws a
 * `ConfigError` naming the file and the first problem: a validator for skill authors. `loadSkills` reads
 * the same rules leniently.
 */
export function parseSkillMarkdown(text: string, where: { file: string; folder: string }): SkillData {
  const { skill, problems } = readSkillMarkdown(text, where);
  if (problems.length || !skill) throw invalid(where.file, problems[0]?.message ?? 'it cannot be read');
  return skill;
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

export interface LoadSkillsOptions {
  /**
   * Refuse any skill that breaks a rule of the specification, with a `ConfigError` (a validator's reading).
   * By default a skill is read as leniently as the reference clients read it: each broken rule is a warning,
   * and a skill that cannot be used (no frontmatter, no description) is skipped with one.
   */
  strict?: boolean;
  /** Called with each warning (the agent turns them into `warning` events). */
  onWarning?(warning: SkillWarning): void;
}

/** Reads the skill in `folder` (which holds a SKILL.md): the skill, or undefined when it was skipped. */
async function loadSkill(folder: string, options: LoadSkillsOptions): Promise<Skill | undefined> {
  const file = path.join(folder, 'SKILL.md');
  const where = { file, folder: path.basename(folder) };
  const text = await readFile(file, 'utf8').catch((error: Error) => error);
  const reading =
    typeof text === 'string'
      ? readSkillMarkdown(text, where)
      : { problems: [{ severity: 'error' as const, message: `it cannot be read (${text.message})` }] };
  if (options.strict && reading.problems.length) throw invalid(file, reading.problems[0].message);
  for (const problem of reading.problems) {
    options.onWarning?.({ file, message: `${problem.message}.`, skipped: !reading.skill });
  }
  if (!reading.skill) return undefined;
  return { ...reading.skill, files: await listFiles(folder), readFile: fileReader(folder) };
}

const hasSkillFile = (folder: string) =>
  stat(path.join(folder, 'SKILL.md')).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * The skill folders at or below `folder`, up to `SKILL_SEARCH_DEPTH` levels down: a folder with a SKILL.md is a
 * skill and is not looked into further. `budget.left` counts the folders still to be looked into.
 */
async function findSkillFolders(folder: string, depth = 0, budget = { left: MAX_FOLDERS }): Promise<string[]> {
  if (await hasSkillFile(folder)) return [folder];
  if (depth >= SKILL_SEARCH_DEPTH || budget.left <= 0) return [];
  budget.left--;
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || !searchedFolder(entry.name)) continue;
    found.push(...(await findSkillFolders(path.join(folder, entry.name), depth + 1, budget)));
  }
  return found;
}

/**
 * Loads Agent Skills from folders: each folder is a skill (it holds a `SKILL.md`) or holds skills (folders
 * below it, up to five levels down, that do; of the hidden folders, only where agents keep skills, such as `.claude` and `.agents`). A skill that breaks a rule of the specification is read as
 * leniently as the reference clients read it, and each broken rule is a warning (`onWarning`); one that
 * cannot be used is skipped with a warning; twins in two plugins of one folder are told apart (`qualifyTwins`), and
 * of two skills with one name otherwise the first is kept. A folder that is
 * missing, or that holds no usable skill, is a `ConfigError`. Nothing in a skill is run: scripts are files to read.
 *
 * @example
 * const skills = await loadSkills('./skills', { onWarning: (w) => console.warn(w.file, w.message) });
 * const agent = new Agent({ model, skills });
 */
export async function loadSkills(
  folders: string | readonly string[],
  options: LoadSkillsOptions = {},
): Promise<Skill[]> {
  // From here on, agents given these skills add the catalogue and the skill tools.
  provideSkillKit(SKILL_KIT);
  const skills: Skill[] = [];
  const seen = new Map<string, string>();
  for (const folder of typeof folders === 'string' ? [folders] : folders) {
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw new ConfigError({ message: `The skills folder ${folder} does not exist.` });
    const found: Skill[] = [];
    const skipped: string[] = [];
    for (const dir of await findSkillFolders(folder)) {
      const skill = await loadSkill(dir, {
        ...options,
        onWarning: (w) => {
          if (w.skipped) skipped.push(`${w.file}: ${w.message}`);
          options.onWarning?.(w);
        },
      });
      if (skill) found.push(skill);
    }
    if (found.length === 0) {
      const why = skipped.length
        ? ` Skipped: ${skipped.join(' ')}`
        : ` No folder below it holds a SKILL.md (looked ${SKILL_SEARCH_DEPTH} levels down, and into ${[...AGENT_FOLDERS].join(' ')} of the hidden ones).`;
      throw new ConfigError({ message: `The skills folder ${folder} holds no usable skill.${why}` });
    }
    // Folders from the given one to the skill's parent: \`plugins/<plugin>/skills\` names <plugin>.
    const above = (skill: Skill) => path.relative(folder, path.dirname(path.dirname(skill.file))).split(path.sep);
    const named = options.strict ? found : qualifyTwins(found, { above, onWarning: options.onWarning });
    for (const skill of named) {
      const other = seen.get(skill.name);
      if (!other) {
        seen.set(skill.name, skill.file);
        skills.push(skill);
        continue;
      }
      const message = `Two skills are named "${skill.name}": ${other} and ${skill.file}.`;
      if (options.strict) throw new ConfigError({ message });
      options.onWarning?.({ file: skill.file, message: `${message} The first is kept.`, skipped: true });
    }
  }
  return skills;
}
