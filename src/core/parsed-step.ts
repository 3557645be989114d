/**
 * What a parser read out of one model reply. Parsers never throw: a reply they cannot read is `invalid`,
 * with a reason precise enough to tell the model what to fix.
 */
export type ParsedStep =
  | { type: 'action'; thought?: string; tool: string; input: ActionInput; repaired?: boolean }
  | { type: 'final'; thought?: string; answer: string; repaired?: boolean }
  | { type: 'invalid'; reason: string; raw: string };

/** An object when the action input was JSON-like, else the trimmed string. */
export type ActionInput = Record<string, unknown> | string;
