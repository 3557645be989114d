import type { Skill, SkillWarning } from './skill.js';

/**
 * Hidden folders where agents keep a project's skills (`.agents/skills`, `.claude/skills`...): looked into
 * like any other folder, as the clients that read them do; every other hidden folder is not.
 */
export const AGENT_FOLDERS: ReadonlySet<string> = new Set([
  '.agents',
  '.claude',
  '.codex',
  '.cursor',
  '.gemini',
  '.github',
  '.opencode',
]);

/**
 * Whether skills are looked for in a folder of this name: not in `node_modules` (a dependency's bundled
 * skills), nor in a hidden folder other than the agents' own. `loadSkills` and `workspaceSkills` share this rule.
 */
export function searchedFolder(name: string): boolean {
  return name !== 'node_modules' && (!name.startsWith('.') || AGENT_FOLDERS.has(name));
}

/** What `qualifyTwins` needs of the folder the skills were found in. */
export interface TwinsContext {
  /** The folders between the searched folder and a skill's own folder, outermost first ('/'-separated or not). */
  above(skill: Skill): readonly string[];
  onWarning?(warning: SkillWarning): void;
}

/**
 * Skills of one name in different parts of one folder (each plugin of a marketplace with its own `setup`) are
 * told apart as Claude Code tells plugin skills apart: `<plugin>:<name>`, the plugin being the nearest folder
 * above the skill that is not a `skills` folder nor an agent's hidden one. One right below the searched folder
 * (or its `skills/`, `.claude/skills/`) keeps its name. Each renamed skill is a warning; twins this cannot tell
 * apart are left as they are (the caller keeps the first). `loadSkills` and `workspaceSkills` share this rule.
 */
export function qualifyTwins(found: readonly Skill[], context: TwinsContext): Skill[] {
  const count = new Map<string, number>();
  for (const skill of found) count.set(skill.name, (count.get(skill.name) ?? 0) + 1);
  if (found.every((s) => count.get(s.name) === 1)) return [...found];
  // A `skills` folder, or an agent's hidden one (`.claude/skills/x`), names no plugin.
  const ownerOf = (skill: Skill): string | undefined =>
    [...context.above(skill)]
      .reverse()
      .find((part) => part && part !== '.' && part !== '..' && part !== 'skills' && !AGENT_FOLDERS.has(part));
  const named = found.map((skill) => {
    const owner = count.get(skill.name)! > 1 ? ownerOf(skill) : undefined;
    return owner ? { ...skill, name: `${owner}:${skill.name}` } : skill;
  });
  const taken = new Map<string, number>();
  for (const skill of named) taken.set(skill.name, (taken.get(skill.name) ?? 0) + 1);
  return named.map((skill, i) => {
    const plain = found[i];
    // Two twins of one plugin, say: renaming them tells nothing apart.
    if (skill === plain || taken.get(skill.name)! > 1) return plain;
    const message = `Other skills are named "${plain.name}" too; this one is loaded as "${skill.name}".`;
    context.onWarning?.({ file: skill.file, message, skipped: false });
    return skill;
  });
}
