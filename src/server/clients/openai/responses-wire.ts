import { z } from 'zod';

/** A content part of an input message: text parts only reach an agent. */
const InputPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** An input message (`EasyInputMessage` or an earlier response's output message). */
export const InputMessage = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(InputPart)]),
});

export const FunctionCallItem = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
});

export const FunctionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string(),
  output: z.union([z.string(), z.array(InputPart)]),
});

/** One input item; other item types (reasoning, item references, built-in tool calls) are refused by name. */
export const InputItem = z.union([
  InputMessage,
  FunctionCallItem,
  FunctionCallOutputItem,
  z.looseObject({ type: z.string() }),
]);
export type InputItem = z.infer<typeof InputItem>;

/** A function tool the caller runs itself (flat, as the Responses API takes it). */
const FunctionTool = z.looseObject({
  type: z.string(),
  name: z.string().optional(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** `text.format`: plain text, any JSON object, or a JSON Schema the answer must match. */
export const TextFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().optional(),
    strict: z.boolean().nullish(),
  }),
]);
export type TextFormat = z.infer<typeof TextFormat>;

/** The OpenAI Responses create request as an agent serves it; what it cannot honour is refused by `unsupportedResponsesField`. */
export const ResponsesBody = z.looseObject({
  /** The agent's name. */
  model: z.string().min(1, 'model must name an agent'),
  input: z.union([z.string(), z.array(InputItem).min(1, 'input must hold at least one item')]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_obfuscation: z.boolean().optional() }).nullish(),
  tools: z.array(FunctionTool).optional(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z.looseObject({ format: TextFormat.optional(), verbosity: z.string().nullish() }).nullish(),
  previous_response_id: z.string().nullish(),
  include: z.array(z.string()).nullish(),
  truncation: z.string().nullish(),
});
export type ResponsesBody = z.infer<typeof ResponsesBody>;

const READ = new Set([
  'model',
  'input',
  'instructions',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'previous_response_id',
  'include',
  'truncation',
]);
/** Fields that describe the caller or the storage of the response, not the answer: accepted without effect. */
const NO_EFFECT = new Set(['user', 'metadata', 'store', 'service_tier', 'prompt_cache_key', 'safety_identifier']);

/**
 * The first field of a Responses request an agent cannot honour, with why, or undefined: sampling and
 * length settings belong to the agent's model on the server, tools must be functions, the agent picks its tools.
 */
export function unsupportedResponsesField(body: ResponsesBody): { field: string; why: string } | undefined {
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool.type !== 'function' || !tool.name) {
      return { field: `tools[${i}]`, why: `a "${tool.type}" tool cannot run in an agent; send function tools only` };
    }
  }
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && choice !== 'auto') {
    return { field: 'tool_choice', why: 'the agent decides when to call tools; send "auto" or leave it out' };
  }
  if (body.parallel_tool_calls === false) {
    return { field: 'parallel_tool_calls', why: 'an agent may call several tools in one step; leave it out' };
  }
  if (body.text?.verbosity) return { field: 'text.verbosity', why: "verbosity is the agent's model setting" };
  if (body.truncation && body.truncation !== 'disabled') {
    return { field: 'truncation', why: 'the agent keeps its own context window; leave it out' };
  }
  for (const [i, value] of (body.include ?? []).entries()) {
    // An agent's answer carries no reasoning items, so asking for their encrypted content asks for nothing.
    if (value === 'reasoning.encrypted_content') continue;
    return { field: `include[${i}]`, why: `"${value}" is not produced by an agent run` };
  }
  for (const key of Object.keys(body)) {
    if (READ.has(key) || NO_EFFECT.has(key) || (body as Record<string, unknown>)[key] === null) continue;
    return {
      field: key,
      why: "the agent's model and its settings are configured on the server, so this field cannot be honoured; leave it out",
    };
  }
  return undefined;
}
