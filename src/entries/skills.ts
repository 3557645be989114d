/**
 * `thinkflow/skills`: loads Agent Skills folders from disk (Node). Give the skills to `new Agent({ skills })`,
 * or give it the folders and it loads them itself on its first run.
 */
export { loadSkills, parseSkillMarkdown, type Skill } from '../skills/node.js';
