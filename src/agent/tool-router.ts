import MiniSearch from 'minisearch';
import type { ToolSpec } from '../core/index.js';

/** Options for picking a relevant subset of many tools at each step. */
export interface ToolRoutingOptions {
  /** Route only when the agent has more tools than this. Default 20. */
  minTools?: number;
  /** How many tools each step sees. Default 8. */
  topK?: number;
  /** Your own ranking (e.g. by embeddings); returns tool names, best first. Default: BM25 over names and descriptions. */
  rank?: (query: string, tools: readonly ToolSpec[]) => string[] | Promise<string[]>;
}

/** Picks this step's tools for a query (the question and the latest thought and observation). */
export type Router = (query: string, tools: readonly ToolSpec[]) => Promise<ToolSpec[]>;

/** Splits `get_weather`/`getWeather` into words so a query for "weather" finds it. */
function words(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
}

/**
 * Picks the top-k tools for a query by BM25 over names and descriptions. The index is built once
 * per tool list (the registry keeps the same array until its tools change).
 */
export function createToolRouter(options: ToolRoutingOptions = {}): Router {
  const topK = options.topK ?? 8;
  let indexed: readonly ToolSpec[] | undefined;
  let search: MiniSearch | undefined;
  return async (query: string, tools: readonly ToolSpec[]): Promise<ToolSpec[]> => {
    if (options.rank) {
      const names = await options.rank(query, tools);
      const byName = new Map(tools.map((t) => [t.name, t]));
      return names.flatMap((n) => byName.get(n) ?? []).slice(0, topK);
    }
    if (indexed !== tools || !search) {
      search = new MiniSearch({
        fields: ['name', 'description'],
        storeFields: [],
        idField: 'id',
        searchOptions: { boost: { name: 2 }, prefix: true, fuzzy: 0.2 },
      });
      search.addAll(tools.map((t, id) => ({ id, name: words(t.name), description: t.description })));
      indexed = tools;
    }
    const hits = search.search(query, { combineWith: 'OR' }).slice(0, topK);
    return hits.map((h) => tools[h.id as number]);
  };
}
