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

/**
 * What a parser read out of one model reply. Parsers never throw: a reply they cannot read is `invalid`,
 * with a reason precise enough to tell the model what to fix. An action always has a non-empty tool name.
 * `repaired` marks JSON that needed repair or was cut off; `habits` names the formatting habits read through.
 */
export type ParsedStep =
  | {
      type: 'action';
      thought?: string;
      tool: string;
      input: ActionInput;
      repaired?: boolean;
      habits?: ReplyHabit[];
    }
  | { type: 'final'; thought?: string; answer: string; repaired?: boolean; habits?: ReplyHabit[] }
  | {
      type: 'invalid';
      reason: string;
      raw: string;
      /** The model's own words that could not be read (one line or a short span), to quote back. */
      quote?: string;
      /** The corrected line the model should write instead, in the reply's keywords. */
      fix?: string;
    };

/** An object or an array when the action input was JSON-like, else the trimmed string. */
export type ActionInput = Record<string, unknown> | unknown[] | string;
