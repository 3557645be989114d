import { z } from 'zod';
import { type UnsupportedField, unknownField, unsupportedToolSettings } from './unsupported-field.js';

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

/** The fields of a Responses request read besides those both OpenAI forms read. */
const READ = ['input', 'instructions', 'text', 'previous_response_id', 'include', 'truncation'];

/**
 * The first field of a Responses request an agent cannot honour, with why, or undefined: sampling and
 * length settings belong to the agent's model on the server, tools must be functions, the agent picks its tools.
 */
export function unsupportedResponsesField(body: ResponsesBody): UnsupportedField | undefined {
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool.type !== 'function' || !tool.name) {
      return { field: `tools[${i}]`, why: `a "${tool.type}" tool cannot run in an agent; send function tools only` };
    }
  }
  const toolSettings = unsupportedToolSettings(body);
  if (toolSettings) return toolSettings;
  if (body.text?.verbosity) return { field: 'text.verbosity', why: "verbosity is the agent's model setting" };
  if (body.truncation && body.truncation !== 'disabled') {
    return { field: 'truncation', why: 'the agent keeps its own context window; leave it out' };
  }
  for (const [i, value] of (body.include ?? []).entries()) {
    // An agent's answer carries no reasoning items, so asking for their encrypted content asks for nothing.
    if (value === 'reasoning.encrypted_content') continue;
    return { field: `include[${i}]`, why: `"${value}" is not produced by an agent run` };
  }
  return unknownField(body, READ);
}
