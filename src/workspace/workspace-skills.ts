import {
  provideSkillKit,
  qualifyTwins,
  type ResolvedSkills,
  SKILL_KIT,
  SKILL_SEARCH_DEPTH,
  type Skill,
  type SkillWarning,
  searchedFolder,
  skillMarkdownReader,
} from '../skills/index.js';
import type { Workspace } from './workspace.js';

const folderOf = (file: string) => file.slice(0, file.lastIndexOf('/'));
const baseName = (folder: string) => folder.slice(folder.lastIndexOf('/') + 1);

/**
 * The Agent Skills kept in a workspace's `.skills/` folder (or `folder`), read through the workspace itself, so
 * they work on every backend and runtime: a folder with a `SKILL.md` is a skill, up to five levels down.
 * They are read as leniently as `loadSkills` reads skills on disk: each broken rule is a warning, a skill that
 * cannot be used is skipped with one, same-named skills of two plugins load as `<plugin>:<name>`, and of two skills
 * with one name otherwise the first is kept. Unlike `loadSkills`, a
 * workspace without the folder simply has no skills. A skill's `readFile` stays inside the skill's folder.
 *
 * @example
 * const { skills, warnings } = await workspaceSkills(ws);
 */
export async function workspaceSkills(ws: Workspace, folder = '.skills'): Promise<ResolvedSkills> {
  // From here on, agents given these skills add the catalogue and the skill tools.
  provideSkillKit(SKILL_KIT);
  const readSkillMarkdown = await skillMarkdownReader();
  const root = folder.replace(/\/+$/, '');
  const exists = await ws.stat(root).then(
    (s) => s.type === 'directory',
    () => false,
  );
  if (!exists) return { skills: [], warnings: [] };
  const all = await ws.glob(`${root}/**`);
  const depth = (file: string) => file.split('/').length - root.split('/').length - 1;
  const skillFiles = all
    .filter((file) => file.endsWith('/SKILL.md') && depth(file) <= SKILL_SEARCH_DEPTH && looked(file, root))
    .sort();
  const found: Skill[] = [];
  const warnings: SkillWarning[] = [];
  const onWarning = (warning: SkillWarning) => warnings.push(warning);
  const taken: string[] = [];
  for (const file of skillFiles) {
    const dir = folderOf(file);
    // A skill's folder is not looked into further: a SKILL.md below it belongs to the skill as a file.
    if (taken.some((outer) => dir.startsWith(`${outer}/`))) continue;
    taken.push(dir);
    const reading = readSkillMarkdown(await ws.readFile(file), { file, folder: baseName(dir) });
    for (const problem of reading.problems)
      onWarning({ file, message: `${problem.message}.`, skipped: !reading.skill });
    if (!reading.skill) continue;
    const files = all.filter((f) => f.startsWith(`${dir}/`) && f !== file).map((f) => f.slice(dir.length + 1));
    found.push({ ...reading.skill, files, readFile: skillFileReader(ws, dir) });
  }
  // Folders from the root to the skill's parent: `plugins/<plugin>/skills` names <plugin>.
  const above = (skill: Skill) =>
    folderOf(folderOf(skill.file))
      .slice(root.length + 1)
      .split('/');
  const skills: Skill[] = [];
  const seen = new Map<string, string>();
  for (const skill of qualifyTwins(found, { above, onWarning })) {
    const other = seen.get(skill.name);
    if (other) {
      const message = `Two skills are named "${skill.name}": ${other} and ${skill.file}. The first is kept.`;
      warnings.push({ file: skill.file, message, skipped: true });
      continue;
    }
    seen.set(skill.name, skill.file);
    skills.push(skill);
  }
  return { skills, warnings };
}

/** Not below `node_modules` nor a hidden folder other than the agents' own (`.claude`...), as `loadSkills` looks. */
function looked(file: string, root: string): boolean {
  const parts = file
    .slice(root.length + 1)
    .split('/')
    .slice(0, -1);
  return parts.every(searchedFolder);
}

/** Reads a file of the skill in `dir`; a path that is absolute or climbs out of the skill's folder is refused. */
function skillFileReader(ws: Workspace, dir: string): (path: string) => Promise<string> {
  return async (path) => {
    const parts = path.replace(/\\/g, '/').split('/');
    if (path.startsWith('/') || parts.includes('..') || /^[a-zA-Z]:/.test(path)) {
      throw new Error(
        `"${path}" is outside the skill's folder; give a path relative to it, e.g. "references/guide.md".`,
      );
    }
    return await ws.readFile(`${dir}/${parts.filter((p) => p && p !== '.').join('/')}`);
  };
}
