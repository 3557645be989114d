/** Agent Skills on disk (Node only: it reads folders). An agent given skill folders loads this module on its first run. */
export { type LoadSkillsOptions, loadSkills, parseSkillMarkdown, type SkillWarning } from './load-skills.js';
export { readSkillMarkdown, type SkillProblem, type SkillReading } from './read-skill-markdown.js';
export type { Skill } from './skill.js';
