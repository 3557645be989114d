/**
 * Reduces a tool name to a forgiving key: case, spaces, `-`/`_`/`.` separators, a trailing `()`,
 * surrounding quotes or backticks and an OpenAI-style `functions.` prefix are all ignored, so
 * `"Get Weather()"`, `` `get-weather` `` and `get_weather` meet on the same key.
 */
export function normalizeToolName(name: string): string {
  let text = name.trim();
  // Quotes can nest around a call-looking name (`"search()"`), so peel both until stable.
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/^["'`]+|["'`]+$/g, '').trim();
    text = text.replace(/\(\s*\)$/, '').trim();
  }
  return text
    .replace(/^functions\./i, '')
    .toLowerCase()
    .replace(/[\s_.-]+/g, '');
}
