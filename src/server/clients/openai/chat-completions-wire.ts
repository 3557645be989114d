import { z } from 'zod';
import { type UnsupportedField, unknownField, unsupportedToolSettings } from './unsupported-field.js';

const ContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

const WireToolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

/** A chat message as OpenAI clients send it, tool turns included. */
export const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  tool_calls: z.array(WireToolCall).nullish(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A function tool the caller runs itself. */
export const ChatTool = z.object({
  type: z.literal('function', { error: 'tools[].type must be "function": an agent cannot run built-in OpenAI tools' }),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

/** `response_format`: text, any JSON object, or a JSON Schema the answer must match. */
export const ChatResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

/**
 * The OpenAI chat completions request as an agent serves it. Fields that an agent cannot honour
 * (sampling settings belong to the agent's model, n > 1, logprobs, ...) are refused by
 * `unsupportedChatField`; every other field is read here.
 */
export const ChatCompletionBody = z.looseObject({
  /** The agent's name. */
  model: z.string().min(1, 'model must name an agent'),
  messages: z.array(ChatMessage).min(1, 'messages must hold at least one message'),
  stream: z.boolean().nullish(),
  stream_options: z
    .looseObject({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
    .nullish(),
  tools: z.array(ChatTool).optional(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: ChatResponseFormat.nullish(),
  n: z.number().int().nullish(),
  logprobs: z.boolean().nullish(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

/** The fields of a Chat Completions request read besides those both OpenAI forms read. */
const READ = ['messages', 'response_format', 'n', 'logprobs'];

/**
 * The first field of a request an agent cannot honour, with why, or undefined. Sampling and
 * length settings belong to the agent's model on the server; one answer per request; no log probabilities.
 */
export function unsupportedChatField(body: ChatCompletionBody): UnsupportedField | undefined {
  if (body.n !== undefined && body.n !== null && body.n !== 1) {
    return { field: 'n', why: 'an agent gives one answer per request; send n: 1 or leave it out' };
  }
  if (body.logprobs) return { field: 'logprobs', why: 'an agent run has no token log probabilities' };
  return unsupportedToolSettings(body) ?? unknownField(body, READ);
}
