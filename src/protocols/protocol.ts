import type { Message, ModelResponse, ReadReply, Step, ToolSpec } from '../core/index.js';

/** The protocols: provider tool calls, a JSON object per reply, ReAct text, or a JavaScript block per reply (CodeAct). */
export type ProtocolName = 'native' | 'json' | 'react' | 'code';
/** The prompt language: English or Chinese (keywords, instructions and corrections). */
export type Language = 'en' | 'zh';

/** What a protocol needs to write the system prompt. */
export interface PromptContext {
  instructions?: string;
  tools: ToolSpec[];
  language: Language;
  /** Few-shot examples, inserted verbatim. */
  examples?: string[];
  /** Extra context blocks (recalled memories, plan, reflections), each inserted as a section. */
  context?: string[];
}

export type { ReadReply, ReadToolCall } from '../core/index.js';

/** What reading a reply may use besides the reply: the tools the model was offered. */
export interface ReadContext {
  /** A bare call in text counts when it names one of these (see `readToolCalls`). */
  tools?: readonly { name: string }[];
}

/** What a correction may show beyond the reason: the model's own words and the corrected line. */
export interface CorrectionDetail {
  quote?: string;
  fix?: string;
}

/**
 * A protocol: how tools and the reply format go into the prompt, and how a reply is read back.
 * Pure functions, no I/O.
 */
export interface Protocol {
  readonly name: ProtocolName;
  /** The system message text: instructions, tool descriptions, format rules, context blocks. */
  systemPrompt(ctx: PromptContext): string;
  /** What goes in the request's `tools` field (native only; others return undefined). */
  requestTools(ctx: PromptContext): ToolSpec[] | undefined;
  /** Reads a model reply, every tool call in it (native or written in text). Never throws. */
  readReply(response: ModelResponse, context?: ReadContext): ReadReply;
  /**
   * The messages that record a finished step for the next prompt: the assistant turn, then the
   * observations (tool results, warnings, or the corrective message after an invalid reply).
   */
  stepMessages(step: Step, language: Language): Message[];
  /**
   * The corrective observation sent after an invalid reply, in `language` (the reply's language):
   * the reason, and when `detail` has them, the model's own words and the exact line to write instead.
   */
  correction(reason: string, language: Language, detail?: CorrectionDetail): string;
  /** The user message asking for a final answer with no more tools (used when maxSteps is reached). */
  finalAnswerRequest(language: Language): string;
  /**
   * Optional stop sequences for the request's `stop` field: text protocols stop the model before it
   * writes an `Observation:` itself. The parsers cope without them; they save tokens and confusion.
   */
  stop?(language: Language): string[] | undefined;
}
