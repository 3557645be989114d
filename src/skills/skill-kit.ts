import type { AnyTool } from '../tools/index.js';
import type { Skill } from './skill.js';

/** The tool that loads a skill; an agent reads its calls to know the active skill. */
export const LOAD_SKILL = 'load_skill';

/** What the skill tools need from their run. */
export interface SkillToolsContext {
  skills: readonly Skill[];
  /** Whether the catalogue left skills out (then `search_skills` is offered). */
  listedAll: boolean;
  onActivate: (skill: Skill) => void;
}

/** What an agent adds for its skills: the catalogue in the system prompt and the skill tools. */
export interface SkillKit {
  catalog(skills: readonly Skill[], budgetTokens?: number): { text: string; listedAll: boolean };
  tools(context: SkillToolsContext): AnyTool[];
}

// Set by `loadSkills()` (which an agent given skill folders runs too), so an agent without skills bundles
// none of the skill tools: `new Agent()` only reads this.
let provided: SkillKit | undefined;

/** Called by the skills loader: from then on an agent with skills adds this catalogue and these tools. */
export function provideSkillKit(kit: SkillKit): void {
  provided = kit;
}

/**
 * The skill catalogue and tools for `new Agent({ skills })`, once the skills loader (or an agent given skills
 * made by hand, which loads them) handed them over.
 */
export function skillKit(): SkillKit | undefined {
  return provided;
}
