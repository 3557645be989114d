import { bm25Scores, bm25Tokens } from './bm25-scores.js';
import type { Memory, MemoryFilter, MemoryHit, MemoryStore } from './memory-store.js';
import { newMemories } from './new-memories.js';
import { cosineSimilarity, type MemoryRanking, rankMemories } from './rank-memories.js';

/** Options of `memoryMemoryStore`: how it ranks (BM25, and with `embed` hybrid search). */
export interface MemoryMemoryStoreOptions extends MemoryRanking {}

interface Entry {
  memory: Memory;
  /** Tokens of the text and of the tags, analysed once at insert. */
  tokens: string[][];
  vector?: number[];
  seq: number;
}

const matches = (memory: Memory, filter: Pick<MemoryFilter, 'kinds' | 'tags'>) =>
  (!filter.kinds?.length || filter.kinds.includes(memory.kind)) &&
  (filter.tags ?? []).every((tag) => memory.tags.includes(tag));

/** A copy the caller may change without changing the store. */
const copy = (memory: Memory): Memory => structuredClone(memory);

/**
 * Long-term memory in memory, gone with the process: for browsers, Workers and tests, where SQLite
 * cannot load. Same behaviour as `SqliteMemoryStore`: BM25 over the analysed text (CJK segmented)
 * and tags, hybrid with `embed`, the same checks, redaction and rerank hook. Search scans every
 * memory, which suits the thousands a page or a Worker holds, not millions.
 *
 * @example
 * const memory = memoryMemoryStore();
 * await memory.add({ kind: 'fact', text: 'The user prefers metric units.', tags: ['user'] });
 * const hits = await memory.search('which units?', { k: 3 });
 */
export function memoryMemoryStore(options: MemoryMemoryStoreOptions = {}): MemoryStore {
  const entries = new Map<string, Entry>();
  let seq = 0;
  const store: MemoryStore = {
    async add(input, addOptions) {
      const [memory] = await store.addMany([input], addOptions);
      return memory;
    },
    async addMany(inputs, addOptions = {}) {
      const { memories, vectors } = await newMemories(inputs, { embed: options.embed, signal: addOptions.signal });
      memories.forEach((memory, i) => {
        const tokens = [bm25Tokens(memory.text), bm25Tokens(memory.tags.join(' '))];
        entries.set(memory.id, { memory: copy(memory), tokens, vector: vectors?.[i], seq: ++seq });
      });
      return memories;
    },
    async search(query, searchOptions = {}) {
      const candidates = [...entries.values()].filter((e) => matches(e.memory, searchOptions));
      const top = (hits: MemoryHit[], limit: number) => hits.sort((a, b) => b.score - a.score).slice(0, limit);
      return rankMemories({
        query,
        search: searchOptions,
        ranking: options,
        lexical: async (limit) => {
          const scores = bm25Scores(
            query,
            candidates.map((e) => e.tokens),
            [1, 0.5],
          );
          const hits = candidates.map((e, i) => ({ memory: copy(e.memory), score: scores[i] }));
          return top(
            hits.filter((h) => h.score > 0),
            limit,
          );
        },
        vector: async (embedding, limit) =>
          top(
            candidates
              .filter((e) => e.vector)
              .map((e) => ({ memory: copy(e.memory), score: cosineSimilarity(embedding, e.vector!) })),
            limit,
          ),
      });
    },
    async get(id) {
      const entry = entries.get(id);
      return entry && copy(entry.memory);
    },
    async delete(id) {
      return entries.delete(id);
    },
    async list(filter = {}) {
      const offset = filter.offset ?? 0;
      return [...entries.values()]
        .filter((e) => matches(e.memory, filter))
        .sort((a, b) => b.memory.createdAt - a.memory.createdAt || b.seq - a.seq)
        .slice(offset, offset + (filter.limit ?? 100))
        .map((e) => copy(e.memory));
    },
    async close() {},
  };
  return store;
}
