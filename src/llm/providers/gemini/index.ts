export {
  type GeminiContent,
  type GeminiPart,
  toGeminiContents,
  toGeminiPart,
  toGeminiTools,
} from './convert-messages.js';
export { type GeminiOptions, gemini } from './gemini-model.js';
export { mapGeminiFinishReason } from './map-finish-reason.js';
export { parseGeminiResponse, parseGeminiStream, readGeminiUsage } from './parse-stream.js';
export { toGeminiSchema } from './to-gemini-schema.js';
