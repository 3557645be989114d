/**
 * Agent Skills on disk (Node only: it reads folders). The root entry imports only the `Skill` type;
 * an agent given skill folders loads this module on its first run.
 */
export { loadSkills, parseSkillMarkdown } from './load-skills.js';
export type { Skill } from './skill.js';
