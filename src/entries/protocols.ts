/**
 * `thinkflow/protocols`: how tool calls are written in text and read back. The prompts of the native, JSON
 * and ReAct protocols, their parsers, `readToolCalls` (any model's call format, in one reader), and the
 * stream reader that turns a run's events into its answer text.
 */

export type { ParsedStep } from '../core/index.js';
export {
  type AnswerDelta,
  type AnswerReader,
  type AnswerReaderOptions,
  type BuildPromptOptions,
  type BuiltPrompt,
  buildPrompt,
  createAnswerReader,
  type ExampleCall,
  type FewShotExample,
  findProseToolCall,
  getProtocol,
  jsonPrompt,
  jsonProtocol,
  type Language,
  nativePrompt,
  nativeProtocol,
  type PromptContext,
  type PromptTemplate,
  type PromptTemplates,
  type Protocol,
  parseJsonAction,
  parseReAct,
  type ReadContext,
  type ReadReply,
  type ReadToolCall,
  type ReadToolCallsOptions,
  reactPrompt,
  reactProtocol,
  readToolCalls,
  renderExample,
  renderPrompt,
  type TextToolCall,
  type ToolCallsRead,
} from '../protocols/index.js';
