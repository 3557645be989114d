import { redactedIfSecret, StoreError } from '../core/index.js';
import type { EmbeddingProvider } from './embedding-provider.js';
import { type Memory, MemoryInput } from './memory-store.js';

/** Memories ready to write: checked, with ids and timestamps, and their vectors when the store embeds. */
export interface NewMemories {
  memories: Memory[];
  /** One per memory, in order; absent without an embedding provider. */
  vectors?: number[][];
  /** The id of the embedding model that made `vectors` (stored beside them: a search compares only vectors of one model). */
  model?: string;
}

/** A short random memory id, easy to type in `thinkflow memory rm`. */
function memoryId(): string {
  return `mem_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/**
 * What every store does before it writes: checks each input (a bad one throws a StoreError naming
 * its index), redacts credentials in it, embeds the texts when the store has `embed`, and gives each memory an id and the same
 * timestamp. Stores call it before opening a transaction, so the slow embedding never holds a lock.
 */
export async function newMemories(
  inputs: MemoryInput[],
  context: { embed?: EmbeddingProvider; signal?: AbortSignal },
): Promise<NewMemories> {
  // Stored redacted as traces are (credentials become `[redacted]`), and embedded as stored.
  const valid = inputs.map((input, i) => {
    const parsed = MemoryInput.safeParse(input);
    if (parsed.success) return redactedIfSecret(parsed.data);
    throw new StoreError({ message: `Memory ${i} is invalid: ${parsed.error.message}` });
  });
  const { embed, signal } = context;
  const vectors =
    embed && valid.length
      ? await embed.embed(
          valid.map((m) => m.text),
          { signal },
        )
      : undefined;
  const now = Date.now();
  const memories: Memory[] = valid.map((m) => ({
    id: memoryId(),
    kind: m.kind,
    text: m.text,
    tags: [...new Set(m.tags ?? [])],
    ...(m.metadata ? { metadata: m.metadata } : {}),
    createdAt: now,
    updatedAt: now,
  }));
  return vectors ? { memories, vectors, model: embed?.id } : { memories };
}
