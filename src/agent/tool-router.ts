import MiniSearch from 'minisearch';
import { isCjkToken, queryTerms, type ToolSpec, textTokens } from '../core/index.js';
import { conceptTokens } from './routing-concepts.js';

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

/** Index side: the shared analysis (CJK segmented), plus the concepts its words name in either language. */
const indexTokens = (text: string): string[] => {
  const tokens = textTokens(text);
  return [...tokens, ...conceptTokens(text, tokens)];
};

/** Query side: the same analysis without stopwords, plus concepts, so "下雨" finds a tool described as "weather". */
const searchTokens = (text: string): string[] => {
  const tokens = queryTerms(text);
  return [...tokens, ...conceptTokens(text, tokens)];
};

/** Prefix and fuzzy matching are for Latin words; on CJK words and concepts they only match noise. */
const latin = (term: string) => !term.startsWith('#') && !isCjkToken(term);

/**
 * Picks the top-k tools for a query by BM25 over names and descriptions, in any language: the text goes
 * through the same analysis as memory search (Chinese and Japanese segmented into words), and a
 * bilingual table of common tool concepts lets a Chinese question reach an English description and back.
 * When fewer than k tools match, the rest of the k slots keep the registry's order, so a question with
 * no word in common with any description still gets tools to choose from. The index is built once per
 * tool list (the registry keeps the same array until its tools change).
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
        tokenize: indexTokens,
        processTerm: (term) => term,
        searchOptions: {
          boost: { name: 2 },
          prefix: latin,
          fuzzy: (term) => (latin(term) ? 0.2 : false),
          tokenize: searchTokens,
          processTerm: (term) => term,
        },
      });
      search.addAll(tools.map((t, id) => ({ id, name: words(t.name), description: t.description })));
      indexed = tools;
    }
    const picked = search.search(query, { combineWith: 'OR' }).map((h) => h.id as number);
    if (picked.length < topK) {
      const seen = new Set(picked);
      for (let id = 0; id < tools.length && picked.length < topK; id++) if (!seen.has(id)) picked.push(id);
    }
    return picked.slice(0, topK).map((id) => tools[id]);
  };
}
