export type { TextToolCall } from '../core/index.js';
export { type BuildPromptOptions, type BuiltPrompt, buildPrompt, renderPrompt } from './build-prompt.js';
// Tool calls written in text: one scanner over one table of formats.
export { type CallFormat, MARKED_FORMATS, UNMARKED_FORMATS, type UnmarkedFormat } from './calls/call-formats.js';
export { type ReadToolCallsOptions, readToolCalls, type ToolCallsRead } from './calls/read-tool-calls.js';
export { codeProtocol } from './code/code-protocol.js';
export { CODE_TOOL, parseCodeAction } from './code/parse-code.js';
export { codePrompt } from './code/prompt.js';
export { callableTools, schemaType, toolDeclarations } from './code/tool-declarations.js';
export { coreProtocol, getProtocol } from './get-protocol.js';
export { jsonProtocol } from './json/json-protocol.js';
export { parseJsonAction } from './json/parse-json-action.js';
export { jsonPrompt } from './json/prompt.js';
export { nativeProtocol } from './native/native-protocol.js';
export { nativePrompt } from './native/prompt.js';
export type {
  CorrectionDetail,
  Language,
  PromptContext,
  Protocol,
  ProtocolName,
  ReadContext,
  ReadReply,
  ReadToolCall,
} from './protocol.js';
export { parseReAct } from './react/parse-react.js';
export { reactPrompt } from './react/prompt.js';
export { reactProtocol } from './react/react-protocol.js';
export { PLAIN_ANSWER_MAX_CHARS } from './shared/build-step.js';
export { type PromptTemplate, type PromptTemplates, replyLanguage } from './shared/prompt-template.js';
export { findProseToolCall, type ProseToolCall, proseCallCorrection } from './shared/prose-tool-call.js';
export { type ExampleCall, type FewShotExample, renderExample } from './shared/render-example.js';
// Answer text read out of a run's events as the model writes it (one scanner per protocol).
export {
  type AnswerPart,
  type AnswerPartReader,
  type AnswerPartReaderOptions,
  type AnswerPartType,
  createAnswerPartReader,
} from './stream/answer-parts.js';
export {
  type AnswerDelta,
  type AnswerReader,
  type AnswerReaderOptions,
  createAnswerReader,
  SEGMENT_BREAK,
} from './stream/answer-text.js';
export { createReplyScanner, type ReplyScanner } from './stream/reply-scanner.js';
