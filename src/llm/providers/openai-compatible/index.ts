export { type OpenAIMessage, toOpenAIMessages, toOpenAITools } from './convert-messages.js';
export { mapOpenAIFinishReason } from './map-finish-reason.js';
export { type OpenAICompatibleOptions, openaiCompatible } from './openai-compatible-model.js';
export { parseOpenAIResponse } from './parse-response.js';
export { parseOpenAIStream } from './parse-stream.js';
