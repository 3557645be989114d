export { type AnthropicOptions, anthropic } from './anthropic-model.js';
export {
  type AnthropicBlock,
  type AnthropicMessage,
  toAnthropicMessages,
  toAnthropicTools,
} from './convert-messages.js';
export { mapAnthropicStopReason } from './map-finish-reason.js';
export { parseAnthropicResponse } from './parse-response.js';
export { parseAnthropicStream } from './parse-stream.js';
