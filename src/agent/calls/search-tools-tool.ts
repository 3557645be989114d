import { z } from 'zod';
import { plural, type Step, type ToolSpec } from '../../core/index.js';
import { defineTool } from '../../tools/index.js';
import type { ToolRouter } from '../routing/index.js';
import { callsOf, type RunBuiltin } from './run-builtins.js';

/** The built-in tool's name. */
export const SEARCH_TOOLS = 'search_tools';
/** How many tools one search lists. */
export const SEARCH_LIMIT = 10;

/** A tool's one line in a search result: its name and the first sentence of its description. */
function toolLine(spec: ToolSpec): string {
  const first = spec.description.split(/(?<=[.!?。！？])\s*|\n/)[0] ?? '';
  const short = first.length > 160 ? `${first.slice(0, 157)}...` : first;
  return `- ${spec.name}: ${short}`;
}

/** What the search tool needs from its run: the router, the run's tools, and how to report a search. */
export interface SearchToolsContext {
  router: ToolRouter;
  tools: () => readonly ToolSpec[];
  onSearch: (query: string, found: string[]) => void;
}

// One schema for every run's tool (its JSON Schema is made once).
const SEARCH_INPUT = z.object({ query: z.string().min(1).describe('What the tool should do, in a few words') });

/**
 * `search_tools({ query })`: searches every tool of the run, including those routing left out of this
 * step, and lists the matches one line each. Offered whenever routing left tools out; the tools it
 * finds are sent with every later step (`foundTools`).
 */
export function searchToolsBuiltin(context: SearchToolsContext): RunBuiltin {
  const offered: RunBuiltin['offered'] = ({ specs, all }) => specs.length < all.length;
  return { name: SEARCH_TOOLS, make: () => searchTool(context), offered };
}

function searchTool({ router, tools, onSearch }: SearchToolsContext) {
  return defineTool({
    name: SEARCH_TOOLS,
    description:
      'Search all available tools, including ones not listed here. Give a few words of what you need to do; ' +
      'the tools found can be called from your next step on.',
    input: SEARCH_INPUT,
    idempotent: true,
    run: ({ query }) => {
      const found = router.search(query, tools(), SEARCH_LIMIT);
      onSearch(
        query,
        found.map((t) => t.name),
      );
      if (found.length === 0) return `No tool matches "${query}". Try other words.`;
      return `Found ${plural(found.length, 'tool')}; you can call them from your next step on:\n${found.map(toolLine).join('\n')}`;
    },
  });
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
