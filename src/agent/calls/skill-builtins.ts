import { z } from 'zod';
import type { Step, ToolSpec } from '../../core/index.js';
import { countTokens } from '../../llm/index.js';
import type { Skill } from '../../skills/index.js';
import { type AnyTool, defineTool } from '../../tools/index.js';
import { ToolIndex } from '../routing/index.js';
import { callsOf, type RunBuiltin } from './run-builtins.js';

export const LOAD_SKILL = 'load_skill';
const DEFAULT_CATALOG_TOKENS = 2_000;

/** The skills catalogue for the system prompt, within a token budget, and the skills left out of it. */
export function skillsCatalog(skills: readonly Skill[], budgetTokens = DEFAULT_CATALOG_TOKENS) {
  const head = `Skills: instructions for particular tasks. When a task matches one, call ${LOAD_SKILL} with its name first and follow what it says.`;
  const lines: string[] = [];
  let used = countTokens(head);
  for (const skill of skills) {
    const line = `- ${skill.name}: ${skill.description}`;
    used += countTokens(line);
    if (used > budgetTokens) break;
    lines.push(line);
  }
  const left = skills.length - lines.length;
  const more = left > 0 ? [`(${left} more skills are not listed: find them with search_skills.)`] : [];
  return { text: [head, ...lines, ...more].join('\n'), listedAll: left === 0 };
}

/** What the skill tools need from their run. */
export interface SkillToolsContext {
  skills: readonly Skill[];
  /** Whether the catalogue left skills out (then `search_skills` is offered). */
  listedAll: boolean;
  onActivate: (skill: Skill) => void;
}

// Module-level schemas: the tools are made per run (they close over its skills), their JSON Schema once.
const LOAD_INPUT = z.object({ name: z.string().min(1).describe('The skill name from the Skills list') });
const READ_INPUT = z.object({
  name: z.string().min(1).describe('The skill name'),
  path: z.string().min(1).describe('The file path inside the skill, e.g. references/guide.md'),
});
const SEARCH_INPUT = z.object({ query: z.string().min(1) });

const known = (skills: readonly Skill[], name: string): Skill => {
  const skill = skills.find((s) => s.name === name);
  if (!skill) throw new Error(`No skill is named "${name}". Skills: ${skills.map((s) => s.name).join(', ')}.`);
  return skill;
};

/**
 * The skill tools: `load_skill({ name })` returns a skill's instructions and the list of its files (and
 * activates it: an event, and its `allowed-tools` narrow the tools offered); `read_skill_file({ name, path })`
 * returns one file, confined to the skill's folder; `search_skills({ query })`, offered only when the
 * catalogue did not fit the prompt, finds skills by their descriptions. Scripts are files to read, never run.
 */
export function skillBuiltins({ skills, listedAll, onActivate }: SkillToolsContext): RunBuiltin[] {
  const load = defineTool({
    name: LOAD_SKILL,
    description: 'Load a skill: its instructions, and the files you can read with read_skill_file.',
    input: LOAD_INPUT,
    idempotent: true,
    run: ({ name }) => {
      const skill = known(skills, name);
      onActivate(skill);
      const files = skill.files.length ? `\n\nFiles (read with read_skill_file):\n${skill.files.join('\n')}` : '';
      return `${skill.body}${files}`;
    },
  });
  const read = defineTool({
    name: 'read_skill_file',
    description: "Read a file of a skill (a reference, an asset, a script's source), by its path inside the skill.",
    input: READ_INPUT,
    idempotent: true,
    run: ({ name, path }) => known(skills, name).readFile(path),
  });
  const index = new ToolIndex();
  const asSpecs = skills.map((s): ToolSpec => ({ name: s.name, description: s.description, parameters: {} }));
  const search = defineTool({
    name: 'search_skills',
    description: 'Search the skills that are not listed, by what you need to do.',
    input: SEARCH_INPUT,
    idempotent: true,
    run: ({ query }) => {
      index.sync(asSpecs);
      const hits = index.search(query, 10);
      if (!hits.length) return `No skill matches "${query}".`;
      return hits.map((h) => `- ${h.spec.name}: ${h.spec.description}`).join('\n');
    },
  });
  const always = () => true;
  const builtin = (tool: AnyTool): RunBuiltin => ({ name: tool.name, make: () => tool, offered: always });
  return [builtin(load), builtin(read), ...(listedAll ? [] : [builtin(search)])];
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
