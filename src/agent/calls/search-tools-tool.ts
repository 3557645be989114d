import type { Step, ToolSpec } from '../../core/index.js';
import { SEARCH_TOOLS, type ToolRouter } from '../routing/index.js';
import { callsOf, type RunBuiltin } from './run-builtins.js';

/** What the search tool needs from its run: the router, the run's tools, and how to report a search. */
export interface SearchToolsContext {
  router: ToolRouter;
  tools: () => readonly ToolSpec[];
  onSearch: (query: string, found: string[]) => void;
}

/**
 * `search_tools({ query })` as a built-in: it searches every tool of the run, including those routing left
 * out of this step, and lists the matches one line each. Offered whenever routing left tools out; the tools
 * it finds are sent with every later step (`foundTools`). The tool itself comes with the router.
 */
export function searchToolsBuiltin({ router, ...context }: SearchToolsContext): RunBuiltin {
  const offered: RunBuiltin['offered'] = ({ specs, all }) => specs.length < all.length;
  return { name: SEARCH_TOOLS, make: () => router.searchTool(context), offered };
}

const found = new WeakMap<object, string[]>();

/**
 * The tools the run's searches found, in the order found: each `search_tools` call is searched again
 * (the same query over the same tools finds the same tools), so a resumed or forked run, which keeps
 * only its steps, sends the same tools as the run it came from.
 */
export function foundTools(steps: readonly Step[], search: (query: string) => string[]): string[] {
  const names = new Set<string>();
  for (const call of callsOf(steps, SEARCH_TOOLS)) {
    let hits = found.get(call);
    if (!hits) {
      const query = (call.input as { query?: unknown })?.query;
      hits = typeof query === 'string' ? search(query) : [];
      found.set(call, hits);
    }
    for (const name of hits) names.add(name);
  }
  return [...names];
}
