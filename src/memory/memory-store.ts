import { z } from 'zod';

/** What a memory is: a fact, an episode (a finished task), a reflection (a lesson from a failure), or a skill (a tool use that worked). */
export const MemoryKind = z.enum(['fact', 'episode', 'reflection', 'skill']);
export type MemoryKind = z.infer<typeof MemoryKind>;

/** One long-term memory, as stored and returned. */
export const Memory = z.object({
  id: z.string(),
  kind: MemoryKind,
  text: z.string(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Epoch milliseconds. */
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Memory = z.infer<typeof Memory>;

/** What to store: the store assigns the id and the timestamps. */
export const MemoryInput = z.object({
  kind: MemoryKind,
  text: z.string().min(1),
  tags: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type MemoryInput = z.infer<typeof MemoryInput>;

/** Narrows `list()` and `search()`: any of `kinds`, all of `tags`. */
export interface MemoryFilter {
  kinds?: MemoryKind[];
  tags?: string[];
  /** Default 100 for `list()`. */
  limit?: number;
  offset?: number;
}

export interface MemorySearchOptions {
  /** How many hits to return. Default 5. */
  k?: number;
  kinds?: MemoryKind[];
  tags?: string[];
  signal?: AbortSignal;
}

/** A search result. `score` is higher for better matches; its scale depends on the ranking (BM25 or fused). */
export interface MemoryHit {
  memory: Memory;
  score: number;
}

/** Reorders search candidates (e.g. with a cross-encoder or an LLM); the store keeps the first `k`. */
export type Rerank = (query: string, hits: MemoryHit[], signal?: AbortSignal) => Promise<MemoryHit[]>;

/**
 * Long-term memory: what an agent learned, kept across runs. `SqliteMemoryStore` (FTS5 BM25, hybrid
 * with an embedding provider) is the embedded default; `PostgresMemoryStore` scales out.
 */
export interface MemoryStore {
  add(input: MemoryInput, options?: { signal?: AbortSignal }): Promise<Memory>;
  /** Adds many in one transaction. */
  addMany(inputs: MemoryInput[], options?: { signal?: AbortSignal }): Promise<Memory[]>;
  search(query: string, options?: MemorySearchOptions): Promise<MemoryHit[]>;
  get(id: string): Promise<Memory | undefined>;
  /** True when a memory was deleted. */
  delete(id: string): Promise<boolean>;
  /** Newest first. */
  list(filter?: MemoryFilter): Promise<Memory[]>;
  close(): Promise<void>;
}
