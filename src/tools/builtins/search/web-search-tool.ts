import { z } from 'zod';
import { defineTool, type Tool } from '../../tool.js';

/** One web search result. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A search backend the user supplies (a search API client, a SearXNG instance, …). */
export type WebSearchProvider = (
  query: string,
  options: { limit: number; signal: AbortSignal },
) => Promise<WebSearchResult[]>;

const WebSearchInput = z.object({
  query: z.string().min(1).describe('What to search the web for.'),
  limit: z.number().int().min(1).max(10).default(5),
});

/**
 * `web_search`: searches the web through a provider function you supply; thinkflow ships no search
 * backend and sends no traffic of its own. Results come back as a numbered list of title, URL and snippet.
 *
 * @example
 * const search = webSearchTool(async (query) => mySearchApi(query));
 */
export function webSearchTool(provider: WebSearchProvider): Tool<z.infer<typeof WebSearchInput>, string> {
  return defineTool({
    name: 'web_search',
    description: 'Search the web; returns titles, URLs and snippets. Fetch a page with http_get to read it.',
    input: WebSearchInput,
    idempotent: true,
    run: async (input, ctx) => {
      const results = await provider(input.query, { limit: input.limit, signal: ctx.signal });
      if (results.length === 0) return `No results for "${input.query}".`;
      return results
        .slice(0, input.limit)
        .map((r, i) => `${i + 1}. ${oneLine(r.title, 200)}\n   ${oneLine(r.url, 500)}\n   ${oneLine(r.snippet, 400)}`)
        .join('\n');
    },
  });
}

function oneLine(text: unknown, max: number): string {
  const value = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}
