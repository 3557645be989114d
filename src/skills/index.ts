/**
 * Agent Skills: the `Skill` type and the agent's resolver, on every runtime. The loader that reads
 * `SKILL.md` folders from disk is the Node face (`node.ts`); an agent given skill folders loads it on its first run.
 */

export {
  hasSkills,
  type ResolvedSkills,
  resolveSkills,
  type SkillsOption,
  shownSkillWarnings,
  skillWarningText,
} from './resolve-skills.js';
export { SKILL_SEARCH_DEPTH, type Skill, type SkillWarning } from './skill.js';
export {
  LOAD_SKILL,
  provideSkillKit,
  type SkillKit,
  type SkillToolsContext,
  skillKit,
} from './skill-kit.js';
export { SKILL_KIT } from './skill-tools.js';
export { qualifyTwins, searchedFolder, type TwinsContext } from './skill-twins.js';

/**
 * The `SKILL.md` reader (`readSkillMarkdown`), loaded on first use: it brings the YAML parser, which importing
 * the root must not load (test/light-core.test.ts).
 */
export async function skillMarkdownReader(): Promise<typeof import('./read-skill-markdown.js').readSkillMarkdown> {
  return (await import('./read-skill-markdown.js')).readSkillMarkdown;
}
