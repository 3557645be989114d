/**
 * Markers models write around a call given as text: code fences, Mistral's `[TOOL_CALLS]` and
 * Llama's `<|python_tag|>`/`<|eom_id|>`/`<|eot_id|>` tokens. They are neither reasoning nor answer.
 */
export const CALL_MARKERS = /```[\w-]*|\[TOOL_CALLS\]|<\|python_tag\|>|<\|eom_id\|>|<\|eot_id\|>/g;
