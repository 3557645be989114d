/** A tool call written in tags inside a text reply. */
export type TaggedCall = { kind: 'json'; body: string } | { kind: 'function'; name: string; body: string };

const TOOL_CALL = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/gi;
const FUNCTION_TAG = /<function=([^>\s]+)>([\s\S]*?)(?:<\/function>|$)/gi;

/**
 * Finds tool calls written as tags: Hermes/Qwen `<tool_call>{"name": …, "arguments": …}</tool_call>`
 * and Llama 3.1 `<function=name>{…}</function>`, in order of appearance. An unclosed last tag
 * (a cut-off reply) runs to the end of the text.
 */
export function extractTaggedCalls(text: string): TaggedCall[] {
  const found: { at: number; call: TaggedCall }[] = [];
  for (const m of text.matchAll(TOOL_CALL)) found.push({ at: m.index ?? 0, call: { kind: 'json', body: m[1] } });
  for (const m of text.matchAll(FUNCTION_TAG)) {
    found.push({ at: m.index ?? 0, call: { kind: 'function', name: m[1], body: m[2] } });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.call);
}

/** The text before the first tag, which models use for their reasoning. */
export function textBeforeTags(text: string): string {
  const at = text.search(/<tool_call>|<function=/i);
  return at < 0 ? text : text.slice(0, at);
}
