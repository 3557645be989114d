/**
 * `thinkflow/skills`: loads Agent Skills folders from disk (Node). Give the skills to `new Agent({ skills })`,
 * or give it the folders and it loads them itself on its first run.
 */
export {
  type LoadSkillsOptions,
  loadSkills,
  parseSkillMarkdown,
  readSkillMarkdown,
  type Skill,
  type SkillProblem,
  type SkillReading,
  type SkillWarning,
} from '../skills/node.js';
