import type { Step, ToolSpec } from '../../core/index.js';
import { LOAD_SKILL, type Skill, type SkillToolsContext, skillKit } from '../../skills/index.js';
import { callsOf, type RunBuiltin } from './run-builtins.js';

/**
 * The skill tools as built-ins offered at every step: `load_skill({ name })` returns a skill's instructions
 * and its files (and activates it), `read_skill_file({ name, path })` one file, and `search_skills({ query })`,
 * when the catalogue left skills out. They come with the skills loader (`skillKit`).
 */
export function skillBuiltins(context: SkillToolsContext): RunBuiltin[] {
  const always = () => true;
  // The agent's run hands the kit over before it makes these (loadSkills, or its own load for skills made by hand).
  return skillKit()!
    .tools(context)
    .map((tool): RunBuiltin => ({ name: tool.name, make: () => tool, offered: always }));
}

/** The skill the run loaded last, if any (the one whose `allowed-tools` apply). */
export function activeSkill(steps: readonly Step[], skills: readonly Skill[]): Skill | undefined {
  const last = callsOf(steps, LOAD_SKILL).at(-1);
  const name = (last?.input as { name?: unknown } | undefined)?.name;
  return skills.find((s) => s.name === name);
}

/**
 * The tools a skill allows, out of all the run's tools. An entry names a tool (`get_weather`) or a tool
 * with arguments in Claude Code's form (`Bash(git:*)`), which allows the tool.
 */
export function allowedBy(skill: Skill, all: readonly ToolSpec[]): ToolSpec[] {
  const names = new Set((skill.allowedTools ?? []).map((entry) => entry.replace(/\(.*$/, '')));
  return all.filter((t) => names.has(t.name));
}
