/**
 * Reduces a tool name to a forgiving key: case, spaces, `-`/`_`/`.` separators, a trailing `()`,
 * surrounding quotes or backticks and an OpenAI-style `functions.` prefix are all ignored, so
 * `"Get Weather()"`, `` `get-weather` `` and `get_weather` meet on the same key.
 */
export function normalizeToolName(name: string): string {
  let key = known.get(name);
  if (key === undefined) {
    key = normalize(name);
    // Tool names repeat (every registry, every call); model-written variants are few per run.
    if (known.size >= 1000) known.clear();
    known.set(name, key);
  }
  return key;
}

const known = new Map<string, string>();

function normalize(name: string): string {
  let text = name.trim();
  // Quotes can nest around a call-looking name (`"search()"`), so peel both until stable.
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/^["'`]+|["'`]+$/g, '').trim();
    text = text.replace(/\(\s*\)$/, '').trim();
  }
  return squash(text.replace(/^functions\./i, ''));
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[\s_.\-/]+/g, '');
}

/**
 * The forgiving key with a `functions.` prefix kept, for a tool whose own name starts with it
 * (`functions.intersect`, which models also write `functions_intersect`).
 */
export function prefixedToolNameKey(name: string): string {
  let key = prefixed.get(name);
  if (key === undefined) {
    key = squash(name.trim());
    if (prefixed.size >= 1000) prefixed.clear();
    prefixed.set(name, key);
  }
  return key;
}

const prefixed = new Map<string, string>();
