export { type ChatHistoryItem, convertMessages } from './convert-messages.js';
export { findLocalModel, modelsDir } from './find-local-model.js';
export { type LlamaCppModel, type LlamaCppOptions, llamaCpp } from './llamacpp-model.js';
export { ollamaAvailable } from './ollama-available.js';
export { prefixRules, reactGrammar, type ToolGrammar } from './react-grammar.js';
export { FINAL_ACTION, replySchema } from './reply-schema.js';
export { type GrammarSchema, toGrammarSchema } from './to-grammar-schema.js';
