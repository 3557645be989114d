export {
  type ResponsesInputItem,
  type ResponsesInputPart,
  toResponsesInput,
  toResponsesTools,
} from './convert-input.js';
export { type OpenAIResponsesOptions, openaiResponses } from './openai-responses-model.js';
export { parseResponsesResponse } from './parse-response.js';
export { parseResponsesStream } from './parse-stream.js';
