import { z } from 'zod';
import { plural, type ToolSpec } from '../../core/index.js';
import { type AnyTool, defineTool } from '../../tools/index.js';

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

/** What `search_tools` needs from its run: the run's tools, and how to report a search. */
export interface SearchToolContext {
  tools: () => readonly ToolSpec[];
  onSearch: (query: string, found: string[]) => void;
}

// One schema for every run's tool (its JSON Schema is made once).
const SEARCH_INPUT = z.object({ query: z.string().min(1).describe('What the tool should do, in a few words') });

/**
 * `search_tools({ query })` over a router's search: lists the matches one line each. It comes with the
 * router (`ToolRouter.searchTool`), so an agent that routes no tools bundles none of it.
 */
export function searchToolsTool(
  search: (query: string, tools: readonly ToolSpec[], limit: number) => ToolSpec[],
  { tools, onSearch }: SearchToolContext,
): AnyTool {
  return defineTool({
    name: SEARCH_TOOLS,
    description:
      'Search all available tools, including ones not listed here. Give a few words of what you need to do; ' +
      'the tools found can be called from your next step on.',
    input: SEARCH_INPUT,
    idempotent: true,
    run: ({ query }) => {
      const found = search(query, tools(), SEARCH_LIMIT);
      onSearch(
        query,
        found.map((t) => t.name),
      );
      if (found.length === 0) return `No tool matches "${query}". Try other words.`;
      return `Found ${plural(found.length, 'tool')}; you can call them from your next step on:\n${found.map(toolLine).join('\n')}`;
    },
  });
}
