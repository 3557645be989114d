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
 * Claude Code's tool names, as skills written for it list them in `allowed-tools`, and the thinkflow tools
 * that do the same work (the workspace's, the web tools).
 */
const CLAUDE_CODE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  bash: ['bash'],
  read: ['read_file'],
  write: ['write_file'],
  edit: ['edit_file'],
  multiedit: ['edit_file'],
  glob: ['glob'],
  grep: ['grep'],
  ls: ['ls', 'list_files'],
  webfetch: ['http_get'],
  websearch: ['web_search'],
  todowrite: ['todos'],
};

/**
 * The tools a skill allows, out of all the run's tools. An entry names a tool (`get_weather`, any case), a
 * tool with arguments in Claude Code's form (`Bash(git:*)`, which allows the tool), or one of Claude Code's
 * tools (`Read`, `WebFetch`), which allows thinkflow's tool for that work. A list that names none of the
 * run's tools (a skill written for another agent's tools) narrows nothing (undefined): the run keeps its tools.
 */
export function allowedBy(skill: Skill, all: readonly ToolSpec[]): ToolSpec[] | undefined {
  const names = new Set<string>();
  for (const entry of skill.allowedTools ?? []) {
    const name = entry.replace(/\(.*$/, '').trim().toLowerCase();
    names.add(name);
    for (const ours of CLAUDE_CODE_TOOLS[name] ?? []) names.add(ours);
  }
  const allowed = all.filter((t) => names.has(t.name.toLowerCase()));
  return allowed.length ? allowed : undefined;
}
