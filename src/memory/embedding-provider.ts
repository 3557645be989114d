/** Turns texts into vectors, for hybrid memory search. */
export interface EmbeddingProvider {
  /** Names the model, e.g. `openai:text-embedding-3-small`; vectors from another model are never compared. */
  readonly id: string;
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}
