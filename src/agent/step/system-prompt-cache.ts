import type { PromptContext, Protocol } from '../../protocols/index.js';

/** Most distinct prompts kept; the oldest goes first. */
const LIMIT = 256;
const prompts = new Map<string, string>();
const ids = new WeakMap<object, number>();
/** The tools' part of the key, per tool list: a registry hands out one `specs()` array until its tools change. */
const toolKeys = new WeakMap<readonly object[], string>();
let lastId = 0;

function idOf(value: unknown): number | string {
  // A schema that is not an object (a hand-made tool without one) is keyed by its text.
  if (typeof value !== 'object' || value === null) return `~${String(value)}`;
  let id = ids.get(value);
  if (id === undefined) {
    id = ++lastId;
    ids.set(value, id);
  }
  return id;
}

/**
 * A protocol's system prompt, rendered once per distinct prompt and shared by every agent: a server
 * that builds an agent for each request renders it once, not on every run. The key holds everything
 * the prompt is made of (tools by their frozen registry spec, or by name, description and schema object).
 */
export function systemPromptFor(protocol: Protocol, prompt: PromptContext): string {
  let key = `${idOf(protocol)}\u0000${prompt.language}\u0000${prompt.instructions ?? ''}${toolsKey(prompt.tools)}`;
  for (const example of prompt.examples ?? []) key += `\u0002${example}`;
  for (const block of prompt.context ?? []) key += `\u0003${block}`;
  let text = prompts.get(key);
  if (text === undefined) {
    text = protocol.systemPrompt(prompt);
    if (prompts.size >= LIMIT) prompts.delete(prompts.keys().next().value as string);
    prompts.set(key, text);
  }
  return text;
}

/**
 * The key of a tool list, made once per list: an agent with 4,000 tools sends the same `specs()` array
 * every run, so a run pays for a lookup, not for 4,000 ids. Only a frozen list of frozen specs is
 * remembered (a registry's); any other may still change, and each step's short routed list is made afresh.
 */
function toolsKey(tools: PromptContext['tools']): string {
  // A short list is keyed afresh: cheaper than a new WeakMap key each run (a new agent's list is new).
  const remember = tools.length >= REMEMBERED_FROM;
  const known = remember ? toolKeys.get(tools) : undefined;
  if (known !== undefined) return known;
  let key = '';
  let frozen = Object.isFrozen(tools);
  for (const tool of tools) {
    // A registry's specs are frozen and shared (one per tool), so their identity says it all.
    if (Object.isFrozen(tool)) key += `\u0000${idOf(tool)}`;
    else {
      frozen = false;
      key += `\u0000${tool.name}\u0001${tool.description}\u0001${idOf(tool.parameters)}`;
    }
  }
  if (frozen && remember) toolKeys.set(tools, key);
  return key;
}
const REMEMBERED_FROM = 64;
