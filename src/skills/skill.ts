/**
 * One Agent Skill (agentskills.io): a folder with a `SKILL.md` whose YAML frontmatter names and describes it,
 * whose body holds the instructions, and whose optional `scripts/`, `references/` and `assets/` the model
 * can read on demand. Load skills with `loadSkills` (`thinkflow/skills`, Node) or give `new Agent({ skills })`
 * their folders.
 */
export interface Skill {
  /** 1–64 lowercase letters, digits and single hyphens; the same as its folder's name. */
  name: string;
  /** What the skill does and when to use it (1–1024 characters): the model chooses skills by it. */
  description: string;
  /** The tools the skill may use (`allowed-tools`); while the skill is active only these are offered. */
  allowedTools?: string[];
  license?: string;
  /** Environment requirements (`compatibility`, at most 500 characters). */
  compatibility?: string;
  metadata?: Record<string, string>;
  /** The instructions: `SKILL.md` after its frontmatter. */
  body: string;
  /** The `SKILL.md` it was read from, for messages. */
  file: string;
  /** The skill's other files, relative to its folder (`references/guide.md`, `scripts/run.py`...). */
  files: string[];
  /** Reads one of the skill's files as text; refuses paths that leave the skill's folder. Never runs anything. */
  readFile(path: string): Promise<string>;
}

/**
 * Levels below a given folder searched for a `SKILL.md`: a plugin marketplace keeps its skills at
 * `plugins/<plugin>/skills/<skill>/SKILL.md`, four levels down.
 */
export const SKILL_SEARCH_DEPTH = 5;

/** A skill that breaks a rule of the specification: loaded as the reference clients load it, or skipped. */
export interface SkillWarning {
  /** The `SKILL.md` it concerns. */
  file: string;
  message: string;
  /** True when the skill could not be used at all and was left out. */
  skipped: boolean;
}
