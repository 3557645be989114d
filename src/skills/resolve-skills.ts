import type { Skill, SkillWarning } from './skill.js';

// A variable, so bundlers for browsers and edge runtimes do not pull the Node-only loader (node:fs) in:
// only an agent given skill folders loads it, on its first run.
const LOADER = './node.js';

/** The agent's skills, and what the loader had to say about the folders' skills that break a rule. */
export interface ResolvedSkills {
  skills: Skill[];
  /** One per broken rule or skipped skill, in the order found (none for skills given loaded). */
  warnings: SkillWarning[];
}

/**
 * An agent's `skills`: loaded skills and folders to load them from, or a function that finds them on the
 * first run (`workspaceSkills` reads a workspace's `.skills/` this way).
 */
export type SkillsOption = readonly (string | Skill)[] | (() => Promise<ResolvedSkills>);

/** True when an agent's `skills` option may hold skills (a function is asked on the first run). */
export function hasSkills(given: SkillsOption | undefined): boolean {
  return typeof given === 'function' || (given?.length ?? 0) > 0;
}

/**
 * The agent's skills: those given loaded, then those in the folders given as paths (read from disk once,
 * leniently: a skill that breaks a rule is loaded or skipped with a warning, never an error), or what the
 * function given finds.
 */
export async function resolveSkills(given: SkillsOption): Promise<ResolvedSkills> {
  if (typeof given === 'function') return await given();
  const folders = given.filter((g): g is string => typeof g === 'string');
  const loaded: Skill[] = [];
  const warnings: SkillWarning[] = [];
  if (folders.length > 0) {
    const loader = (await importLoader(LOADER)) as typeof import('./node.js');
    loaded.push(...(await loader.loadSkills(folders, { onWarning: (w) => warnings.push(w) })));
  }
  return { skills: [...given.filter((g): g is Skill => typeof g !== 'string'), ...loaded], warnings };
}

/** A loader warning as one line naming the file, as the agent's `warning` events and the CLI print it. */
export function skillWarningText(warning: SkillWarning): string {
  return `${warning.file}: ${warning.message}${warning.skipped ? ' The skill was skipped.' : ''}`;
}

/** Skill warnings shown at a run's start or by the CLI, at most: a big public folder read leniently has a thousand. */
const SHOWN_WARNINGS = 50;

/** The warnings to show, as `skillWarningText` lines (the first 50), and how many more there are. */
export function shownSkillWarnings(warnings: readonly SkillWarning[]): { lines: string[]; more: number } {
  const lines = warnings.slice(0, SHOWN_WARNINGS).map(skillWarningText);
  return { lines, more: warnings.length - lines.length };
}

// Through a parameter, not the constant itself: esbuild folds a constant into a literal `import()`, which edge
// runtimes (workerd) refuse at load when the module is not in the bundle.
function importLoader(specifier: string): Promise<unknown> {
  return import(/* @vite-ignore */ specifier);
}
