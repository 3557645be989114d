import type { ToolSpec } from '../../core/index.js';
import type { EmbeddingProvider } from '../../memory/index.js';
import type { AnyTool } from '../../tools/index.js';
import { type SearchToolContext, searchToolsTool } from './search-tool.js';
import { ToolIndex } from './tool-index.js';

/** Options for picking a relevant subset of many tools at each step. */
export interface ToolRoutingOptions {
  /** Route only when the agent has more tools than this. Default 20. */
  minTools?: number;
  /** At most this many matching tools each step (fewer when fewer match; never padded). Default 8. */
  topK?: number;
  /** Tool names sent at every step whatever the question, besides the `topK` matches. */
  alwaysInclude?: string[];
  /**
   * An embedding model fused with BM25 (reciprocal rank), as memory search does: tool vectors are
   * computed once per tool, the question's once per step. Helps where words differ but meaning does not.
   */
  embed?: EmbeddingProvider;
  /** Your own ranking instead (tool names, best first); `topK` and `alwaysInclude` still apply. */
  rank?: (query: string, tools: readonly ToolSpec[]) => string[] | Promise<string[]>;
  /** Offer the `search_tools` tool whenever routing left tools out. Default true. */
  searchTool?: boolean;
}

/** Picks each step's tools, and searches them for `search_tools`. One per agent: its index lives across runs. */
export interface ToolRouter {
  readonly options: ToolRoutingOptions;
  /** This step's tools: up to `topK` that match the query, best first, then `alwaysInclude`. */
  route(query: string, tools: readonly ToolSpec[], signal?: AbortSignal): Promise<ToolSpec[]>;
  /** The tools matching a query, best first (BM25), at most `limit`. */
  search(query: string, tools: readonly ToolSpec[], limit: number): ToolSpec[];
  /** The `search_tools` tool over `search`, which the agent offers whenever routing left tools out. */
  searchTool(context: SearchToolContext): AnyTool;
}

/** The reciprocal-rank constant from Cormack et al. (2009), as memory search uses it. */
const RRF_K = 60;

const cosine = (a: number[], b: number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

/** Ranks tools by embedding similarity to the query; tool vectors are cached per spec object and model. */
function embeddingRanker(embed: EmbeddingProvider) {
  const vectors = new WeakMap<ToolSpec, number[]>();
  return async (query: string, tools: readonly ToolSpec[], signal?: AbortSignal): Promise<ToolSpec[]> => {
    const missing = tools.filter((t) => !vectors.has(t));
    if (missing.length > 0) {
      const embedded = await embed.embed(
        missing.map((t) => `${t.name}: ${t.description}`),
        { signal },
      );
      for (const [i, t] of missing.entries()) vectors.set(t, embedded[i]);
    }
    const [q] = await embed.embed([query], { signal });
    return tools
      .map((t) => ({ t, s: cosine(q, vectors.get(t)!) }))
      .sort((a, b) => b.s - a.s)
      .map((x) => x.t);
  };
}

/** Fuses ranked lists by reciprocal rank: score = Σ 1 / (60 + rank), best first. */
function fuseRanks(lists: ToolSpec[][]): ToolSpec[] {
  const scores = new Map<ToolSpec, number>();
  for (const list of lists) {
    for (const [rank, t] of list.entries()) scores.set(t, (scores.get(t) ?? 0) + 1 / (RRF_K + rank + 1));
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
}

/** Where a question moves on to another ask: the end of a sentence, or "then", "also", "finally"... */
const ASK_BREAK =
  /[.!?;。！？；\n]+\s*|,?\s+(?:and then|then|also|after that|afterwards|finally|lastly|additionally)\s+/iu;

/**
 * A question that asks for several things ("Book the flight. Then email Ann.") needs a tool for each:
 * the whole question's ranking would let the ask with more words take every slot. So each ask is
 * ranked on its own too, and the lists are merged in turns: the whole question's best, each ask's best,
 * then the second of each, and so on.
 */
function searchAsks(index: ToolIndex, query: string, limit: number): ToolSpec[] {
  const asks = query.split(ASK_BREAK).filter((a) => /[\p{L}\p{N}]/u.test(a));
  const lists = [index.search(query, limit), ...(asks.length > 1 ? asks.map((a) => index.search(a, limit)) : [])];
  const picked = new Set<ToolSpec>();
  for (let rank = 0; picked.size < limit && lists.some((l) => rank < l.length); rank++) {
    for (const list of lists) if (rank < list.length && picked.size < limit) picked.add(list[rank].spec);
  }
  return [...picked];
}

/**
 * Picks the top-k tools for a query by BM25 over names (split at case changes, `_`, `.`, `/`),
 * descriptions and parameter names and descriptions, in any language: English words are stemmed,
 * Chinese and Japanese are segmented as memory search does, and a bilingual table of common tool
 * concepts lets a Chinese question reach an English description and back. Only tools that match are
 * sent: a question that matches two tools gets two (plus `alwaysInclude`), and `search_tools` finds the rest.
 * The index is built once and kept in step with the tool list as tools are registered and removed.
 *
 * @example
 * const router = createToolRouter({ topK: 5 });
 * const tools = await router.route('Will it rain in Paris?', registry.specs());
 */
export function createToolRouter(options: ToolRoutingOptions = {}): ToolRouter {
  const topK = options.topK ?? 8;
  const index = new ToolIndex();
  const embedded = options.embed ? embeddingRanker(options.embed) : undefined;
  const search = (query: string, tools: readonly ToolSpec[], limit: number) => {
    index.sync(tools);
    return searchAsks(index, query, limit);
  };
  const withAlways = (picked: ToolSpec[], tools: readonly ToolSpec[]): ToolSpec[] => {
    if (!options.alwaysInclude?.length) return picked;
    const names = new Set(picked.map((t) => t.name));
    const always = tools.filter((t) => options.alwaysInclude!.includes(t.name) && !names.has(t.name));
    return [...picked, ...always];
  };
  return {
    options,
    search,
    searchTool: (context) => searchToolsTool(search, context),
    async route(query, tools, signal) {
      if (options.rank) {
        const names = await options.rank(query, tools);
        const byName = new Map(tools.map((t) => [t.name, t]));
        return withAlways(names.flatMap((n) => byName.get(n) ?? []).slice(0, topK), tools);
      }
      const lexical = search(query, tools, embedded ? topK * 3 : topK);
      if (!embedded) return withAlways(lexical, tools);
      const semantic = (await embedded(query, tools, signal)).slice(0, topK);
      return withAlways(fuseRanks([lexical, semantic]).slice(0, topK), tools);
    },
  };
}
