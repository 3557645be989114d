export { type ClearedGroup, type ClearGroup, type ContextState, clearToolMessages } from './context-state.js';
export {
  COMPACTION_DEFAULTS,
  type Compaction,
  type CompactionOptions,
  type ContextFit,
  type ContextInput,
  type ContextWindow,
  type ContextWindowOptions,
  createContextWindow,
  type Summarize,
} from './context-window.js';
export { defaultBudgetFor } from './default-budget-for.js';
export type { EmbeddingProvider } from './embedding-provider.js';
export { groupMessages } from './group-messages.js';
// Portable stores (no Node built-ins): the defaults where SQLite cannot load.
export { type MemoryMemoryStoreOptions, memoryMemoryStore } from './memory-memory-store.js';
export { memorySessionStore } from './memory-session-store.js';
export {
  Memory,
  type MemoryFilter,
  type MemoryHit,
  MemoryInput,
  MemoryKind,
  type MemorySearchOptions,
  type MemoryStore,
  type Rerank,
} from './memory-store.js';
export { type CountTokens, createMessageTokens, type MessageTokens } from './message-tokens.js';
export { type OllamaEmbeddingsOptions, ollamaEmbeddings } from './ollama-embeddings.js';
export { type OpenAIEmbeddingsOptions, openaiEmbeddings } from './openai-embeddings.js';
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from './postgres-memory-store.js';
export { openSchemaPool, type SchemaPoolOptions } from './postgres-pool.js';
export { inTransaction, withPooledClient, withSchemaLock } from './postgres-transaction.js';
export { cosineSimilarity, reciprocalRankFusion } from './rank-memories.js';
export {
  episodeFromRun,
  type Recall,
  type RecallOptions,
  type RunSummaryInput,
  recallMemories,
  reflectionFromRun,
} from './recall.js';
export type { SessionInfo, SessionStore } from './session-store.js';
