/** Agent Skills on disk (Node only: it reads folders). */
export { loadSkills, parseSkillMarkdown } from './load-skills.js';
export type { Skill } from './skill.js';
