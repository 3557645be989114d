import type { Skill } from '../../skills/index.js';

// A variable, so bundlers for browsers and edge runtimes do not pull the Node-only loader (node:fs) in:
// only an agent given skill folders loads it, on its first run.
const LOADER = '../../skills/index.js';

/** The agent's skills: those given loaded, then those in the folders given as paths (read from disk once). */
export async function resolveSkills(given: readonly (string | Skill)[]): Promise<Skill[]> {
  const folders = given.filter((g): g is string => typeof g === 'string');
  const loaded: Skill[] = [];
  if (folders.length > 0) {
    const loader = (await import(/* @vite-ignore */ LOADER)) as typeof import('../../skills/index.js');
    loaded.push(...(await loader.loadSkills(folders)));
  }
  return [...given.filter((g): g is Skill => typeof g !== 'string'), ...loaded];
}
