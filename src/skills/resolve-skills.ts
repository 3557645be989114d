import type { Skill } from './skill.js';

// A variable, so bundlers for browsers and edge runtimes do not pull the Node-only loader (node:fs) in:
// only an agent given skill folders loads it, on its first run.
const LOADER = './node.js';

/** The agent's skills: those given loaded, then those in the folders given as paths (read from disk once). */
export async function resolveSkills(given: readonly (string | Skill)[]): Promise<Skill[]> {
  const folders = given.filter((g): g is string => typeof g === 'string');
  const loaded: Skill[] = [];
  if (folders.length > 0) {
    const loader = (await importLoader(LOADER)) as typeof import('./node.js');
    loaded.push(...(await loader.loadSkills(folders)));
  }
  return [...given.filter((g): g is Skill => typeof g !== 'string'), ...loaded];
}

// Through a parameter, not the constant itself: esbuild folds a constant into a literal `import()`, which edge
// runtimes (workerd) refuse at load when the module is not in the bundle.
function importLoader(specifier: string): Promise<unknown> {
  return import(/* @vite-ignore */ specifier);
}
