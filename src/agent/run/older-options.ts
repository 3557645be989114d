import { ConfigError } from '../../core/index.js';
import type { SkillKit } from '../../skills/index.js';
import type { AnyTool } from '../../tools/index.js';
import type { WorkspaceKit } from '../../workspace/index.js';
import type { ToolRouter, ToolRoutingOptions } from '../routing/index.js';
import type { AgentProtocol } from './agent-options.js';

/**
 * The modules behind the option shapes from before each feature had its own import (`protocol: 'code'`, a
 * `toolRouting` options object or the default routing above 20 tools, a Workspace of your own, skills made
 * by hand). An agent meeting one loads the module itself, on its first run, by a specifier bundlers do not
 * see: on Node, Bun and Deno (src or dist, the same folder layout) it is there and the old shape works as it
 * did; in a browser or edge bundle it is not, and the error names the import that brings it
 * (`codeAct()`, `createToolRouter()`, the workspace factories, `loadSkills`).
 */
const FEATURES = {
  code: {
    specifier: '../../code/code-act.js',
    fix: "pass protocol: codeAct() from 'thinkflow/code'",
  },
  router: {
    specifier: '../routing/tool-router.js',
    fix: "pass toolRouting: createToolRouter() from 'thinkflow/tools'",
  },
  workspace: {
    specifier: '../../workspace/agent-kit.js',
    fix: "make it with virtualWorkspace() or sandboxWorkspace(), or pass tools: workspaceTools(ws) from 'thinkflow/workspace'",
  },
  skills: {
    specifier: '../../skills/skill-tools.js',
    fix: "load them with loadSkills() from 'thinkflow/skills'",
  },
} as const;

/** What each feature's module exports. */
interface FeatureModules {
  code: { codeAct: () => AgentProtocol & { readonly tools: readonly AnyTool[] } };
  router: { createToolRouter: (options?: ToolRoutingOptions) => ToolRouter };
  workspace: { AGENT_KIT: WorkspaceKit };
  skills: { SKILL_KIT: SkillKit };
}

export type OlderFeature = keyof FeatureModules;

// Through a parameter, not a literal: esbuild would bundle (or fold into a literal, which workerd refuses at
// load) an `import()` of a constant. Replaceable so a test can play a bundle where the module is missing.
let importModule = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

/** Replaces how the feature modules are imported (tests: a bundle without them); no argument restores it. */
export function setFeatureImport(load?: (specifier: string) => Promise<unknown>): void {
  importModule = load ?? ((specifier) => import(/* @vite-ignore */ specifier));
}

/** How to bring a feature in explicitly, as the errors and warnings say it. */
export function featureFix(feature: OlderFeature): string {
  return FEATURES[feature].fix;
}

/**
 * A feature's module for an older option shape (`what` names it in the error); a ConfigError naming the
 * explicit import when it cannot be loaded (a browser or edge bundle).
 */
export async function loadOlderFeature<F extends OlderFeature>(feature: F, what: string): Promise<FeatureModules[F]> {
  try {
    return (await importModule(FEATURES[feature].specifier)) as FeatureModules[F];
  } catch (cause) {
    throw new ConfigError({
      message: `${what} is not in this bundle: ${FEATURES[feature].fix}.`,
      cause,
    });
  }
}
