/** A request field an agent cannot honour, and why (the 400 names both). */
export interface UnsupportedField {
  field: string;
  why: string;
}

/** Fields both OpenAI request forms read: the model (an agent's name), streaming, and the caller's tools. */
const READ_BY_BOTH = ['model', 'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls'];

/** Fields that describe the caller or the storage of the response, not the answer: accepted without effect. */
const NO_EFFECT = ['user', 'metadata', 'store', 'service_tier', 'prompt_cache_key', 'safety_identifier'];

/**
 * What Chat Completions and Responses refuse alike: a forced tool choice (the agent decides when to call
 * tools), and parallel calls turned off (an agent may call several in one step).
 */
export function unsupportedToolSettings(body: {
  tool_choice?: unknown;
  parallel_tool_calls?: boolean | null;
}): UnsupportedField | undefined {
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && choice !== 'auto') {
    return { field: 'tool_choice', why: 'the agent decides when to call tools; send "auto" or leave it out' };
  }
  if (body.parallel_tool_calls === false) {
    return { field: 'parallel_tool_calls', why: 'an agent may call several tools in one step; leave it out' };
  }
  return undefined;
}

/**
 * The first field of a request that is neither read (by both forms, or by this one: `read`) nor accepted
 * without effect, or undefined; a null field counts as absent. Any other field is refused, naming it: a
 * dropped field is a bug.
 */
export function unknownField(body: object, read: readonly string[]): UnsupportedField | undefined {
  const known = new Set([...READ_BY_BOTH, ...NO_EFFECT, ...read]);
  for (const [key, value] of Object.entries(body)) {
    if (known.has(key) || value === null) continue;
    return {
      field: key,
      why: "the agent's model and its settings are configured on the server, so this field cannot be honoured; leave it out",
    };
  }
  return undefined;
}
