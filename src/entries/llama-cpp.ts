/**
 * `thinkflow/llama-cpp`: local GGUF models run in-process through llama.cpp. Needs the optional peer
 * `node-llama-cpp`. (`resolveModel('llamacpp:FILE.gguf')` in the root entry reaches the same provider.)
 */

export type { LlamaCppModel, LlamaCppOptions } from '../llm/index.js';
export { findLocalModel, llamaCpp, modelsDir } from '../llm/index.js';
