export { type OllamaMessage, toOllamaMessages, toOllamaTools } from './convert-messages.js';
export { mapOllamaDoneReason } from './map-finish-reason.js';
export { type OllamaOptions, ollama, ollamaBaseURL } from './ollama-model.js';
export { parseOllamaResponse, parseOllamaStream } from './parse-stream.js';
