/**
 * A tool call's arguments as the object the vendor's wire format wants (Anthropic `input`, Gemini `args`,
 * Ollama `arguments`). Arguments the model got wrong are kept, not dropped: a JSON value that is not an
 * object is `{ value }`, text that is not JSON is `{ _raw }`, and empty text is `{}`.
 */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return { value };
  } catch {
    return text.trim() ? { _raw: text } : {};
  }
}
