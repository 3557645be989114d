/**
 * The formatting habits of real models that parsers read through, one name per class. A reply read
 * despite a habit carries its names in `habits`, and the loop counts them in `RunStats.habits`.
 *
 * - `fenced_reply`: the whole reply inside a ``` fence.
 * - `trailing_commentary`: an explanation after the input (a paragraph, or a parenthetical on its line).
 * - `quoted_input`: an input in backticks or quotes.
 * - `decorated_tool_name`: `tool()`, `**tool**`, `` `tool` `` or `[tool]` as the tool's name.
 * - `foreign_keywords`: another framework's keywords (`Answer:`, `Input:`, `Finish[…]` with `{"answer"}`).
 * - `json_envelope`: a call wrapped in `{"tool_call": …}`, `{"function": …}`, `{"name", "parameters"}`…
 * - `structured_input`: an array input, or JSON with raw control characters inside its strings.
 * - `special_tokens`: chat-template tokens left in the text, or a call in a model's native token format.
 * - `no_action`: `Action: None` (or `N/A`) before the final answer.
 */
export const REPLY_HABITS = [
  'fenced_reply',
  'trailing_commentary',
  'quoted_input',
  'decorated_tool_name',
  'foreign_keywords',
  'json_envelope',
  'structured_input',
  'special_tokens',
  'no_action',
] as const;

/** One formatting habit a parser read through (see `REPLY_HABITS`). */
export type ReplyHabit = (typeof REPLY_HABITS)[number];

/** One tool call, from the parser that read it through the executor that runs it (native calls keep the provider's id; others get a generated one). */
export interface ReadToolCall {
  id: string;
  name: string;
  /** An object, a JSON-ish string or a bare string; the tool layer coerces it. */
  input: unknown;
}

/** A final answer. `object` is the answer parsed and validated against the agent's output schema, when it has one. */
export interface FinalReply {
  type: 'final';
  thought?: string;
  answer: string;
  object?: unknown;
  repaired?: boolean;
  habits?: ReplyHabit[];
}

/** A reply that could not be read (or whose answer failed the output schema), with a reason precise enough to tell the model what to fix. */
export interface InvalidReply {
  type: 'invalid';
  reason: string;
  raw: string;
  thought?: string;
  /** The model's own words that could not be read (one line or a short span), to quote back. */
  quote?: string;
  /** The corrected line the model should write instead, in the reply's keywords. */
  fix?: string;
}

/**
 * One model reply, read once: the loop's next move. `tool_calls` runs the calls, `final` ends the run,
 * `invalid` sends a correction. Never thrown. `repaired` marks JSON that needed repair or was cut off;
 * `habits` names the formatting habits read through (see `REPLY_HABITS`). Its `type` is the recorded step's `kind`.
 */
export type ReadReply =
  | { type: 'tool_calls'; thought?: string; calls: ReadToolCall[]; repaired?: boolean; habits?: ReplyHabit[] }
  | FinalReply
  | InvalidReply;

/** One tool call read out of text: the tool's name as the model wrote it, and its input. */
export interface TextToolCall {
  name: string;
  input: ActionInput;
}

/**
 * What a text parser read out of one model reply: a `ReadReply` whose calls are still an `action` (the
 * protocol gives them their call ids). `tool` and `input` are the first call; `calls` lists every call
 * in the reply, in order, when it holds more than one. Parsers never throw, and an action always has a
 * non-empty tool name.
 */
export type ParsedStep =
  | {
      type: 'action';
      thought?: string;
      tool: string;
      input: ActionInput;
      /** Every call of the reply, in order, when there are several (the first is `tool`/`input`). */
      calls?: TextToolCall[];
      repaired?: boolean;
      habits?: ReplyHabit[];
    }
  | FinalReply
  | InvalidReply;

/** An object or an array when the action input was JSON-like, else the trimmed string. */
export type ActionInput = Record<string, unknown> | unknown[] | string;
