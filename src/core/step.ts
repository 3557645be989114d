import type { ContentPart, Message, ProviderItem, ReasoningPart, ToolCall } from './message.js';
import type { Usage } from './model-types.js';
import type { ReplyHabit } from './parsed-step.js';

/** One tool call as it ran: its input, output and how long it took. */
export interface ToolCallRecord {
  id: string;
  /** The name the model asked for. */
  name: string;
  /** The registered tool it resolved to, when it resolved. */
  tool?: string;
  input: unknown;
  /** The text the model sees for this call. */
  output: string;
  /** The whole text when `output` was cut to head + tail: what `recall_result` returns. */
  full?: string;
  /** Images or files the tool returned, shown to the model after `output` (which names them). */
  media?: Exclude<ContentPart, { type: 'text' }>[];
  ok: boolean;
  error?: string;
  durationMs: number;
  /** How many times the tool was tried (retries included). */
  attempts?: number;
}

/**
 * One turn of the loop: the model's reply and what came of it.
 * `kind` says whether it asked for tools, answered, or could not be read.
 */
export interface Step {
  index: number;
  kind: 'tool_calls' | 'final' | 'invalid';
  /** The model's raw reply text. */
  raw: string;
  /** Native tool calls exactly as the model sent them. */
  rawToolCalls?: ToolCall[];
  /** The model's reasoning for this step, as the provider sent it (signatures included), sent back next turn. */
  reasoning?: ReasoningPart[];
  /** The provider's own items of this reply (compaction, hosted tool search), sent back next turn as they came. */
  providerItems?: ProviderItem[];
  thought?: string;
  toolCalls: ToolCallRecord[];
  /** The observation text the model sees next (tool outputs, warnings, or the correction for an invalid reply). */
  observation?: string;
  /** Set when `kind` is `invalid`. */
  invalidReason?: string;
  /** The formatting habits the reply was read through (it ran without a correction). */
  habits?: ReplyHabit[];
  /** Set when `kind` is `final`. */
  answer?: string;
  usage?: Usage;
  warnings?: string[];
  /** Extra messages a hook or the memory layer put into the context at this step (summaries, reflections). */
  notes?: Message[];
}
