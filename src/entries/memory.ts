/**
 * `thinkflow/memory`: long-term memory, sessions and the context window, with the stores that run
 * everywhere (in memory) and the embedding providers. Give them to `new Agent({ memory, sessions, context })`.
 * The SQLite stores are in `thinkflow/sqlite`, the PostgreSQL one in `thinkflow/postgres`.
 */
export { RECALL_RESULT } from '../agent/index.js';
export { analyzeText } from '../core/index.js';
export {
  type Compaction,
  type CompactionOptions,
  type ContextFit,
  type ContextInput,
  type ContextState,
  type ContextWindow,
  type ContextWindowOptions,
  createContextWindow,
  defaultBudgetFor,
  type EmbeddingProvider,
  episodeFromRun,
  groupMessages,
  Memory,
  type MemoryFilter,
  type MemoryHit,
  MemoryInput,
  MemoryKind,
  type MemoryMemoryStoreOptions,
  type MemorySearchOptions,
  type MemoryStore,
  memoryMemoryStore,
  memorySessionStore,
  type OllamaEmbeddingsOptions,
  type OpenAIEmbeddingsOptions,
  ollamaEmbeddings,
  openaiEmbeddings,
  type Recall,
  type RecallOptions,
  type Rerank,
  type RunSummaryInput,
  recallMemories,
  reflectionFromRun,
  type SessionInfo,
  type SessionStore,
  type Summarize,
} from '../memory/index.js';
