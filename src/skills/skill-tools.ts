import { z } from 'zod';
import { queryTerms, type ToolSpec, textTokens } from '../core/index.js';
import { countTokens } from '../llm/index.js';
import { type AnyTool, defineTool } from '../tools/index.js';
import type { Skill } from './skill.js';
import { LOAD_SKILL, type SkillKit, type SkillToolsContext } from './skill-kit.js';

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
export function skillTools({ skills, listedAll, onActivate }: SkillToolsContext): AnyTool[] {
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
  const asSpecs = skills.map((s): ToolSpec => ({ name: s.name, description: s.description, parameters: {} }));
  const search = defineTool({
    name: 'search_skills',
    description: 'Search the skills that are not listed, by what you need to do.',
    input: SEARCH_INPUT,
    idempotent: true,
    run: ({ query }) => {
      const hits = sharedWords(query, asSpecs, 10);
      if (!hits.length) return `No skill matches "${query}".`;
      return hits.map((h) => `- ${h.name}: ${h.description}`).join('\n');
    },
  });
  return listedAll ? [load, read] : [load, read, search];
}

/**
 * The skills sharing the most words with the query (CJK segmented, stopwords left out), best first: a few
 * skill descriptions need no search index (the tool router's stays out of an agent that routes no tools).
 */
function sharedWords(query: string, specs: readonly ToolSpec[], limit: number): ToolSpec[] {
  const terms = queryTerms(query);
  return specs
    .map((spec) => {
      const words = new Set(textTokens(`${spec.name.replace(/[-_]/g, ' ')} ${spec.description}`));
      return { spec, score: terms.filter((t) => words.has(t)).length };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((hit) => hit.spec);
}

/** The skills catalogue and tools, as the loader hands them to agents (`provideSkillKit`). */
export const SKILL_KIT: SkillKit = { catalog: skillsCatalog, tools: skillTools };
