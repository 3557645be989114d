/**
 * Agent Skills: the `Skill` type and the agent's resolver, on every runtime. The loader that reads
 * `SKILL.md` folders from disk is the Node face (`node.ts`); an agent given skill folders loads it on its first run.
 */

export type { SkillWarning } from './load-skills.js';
export { readSkillMarkdown } from './read-skill-markdown.js';
export {
  hasSkills,
  type ResolvedSkills,
  resolveSkills,
  type SkillsOption,
  skillWarningText,
} from './resolve-skills.js';
export type { Skill } from './skill.js';
