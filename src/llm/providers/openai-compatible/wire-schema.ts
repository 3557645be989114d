import { z } from 'zod';

// A limited, lenient version of the chat-completions schema: only the fields we read, and
// `.nullish()` everywhere because vLLM, llama.cpp, LM Studio, DeepSeek and Qwen each omit or
// null different ones. Unknown fields (reasoning_content, logprobs, ...) pass through unread.

/** Arguments arrive as a JSON string (the spec) or, from some servers, as an object. */
const WireArguments = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();

const WireContent = z.union([z.string(), z.array(z.object({ text: z.string().nullish() }).loose())]).nullish();

export const OpenAIUsage = z
  .object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    total_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).loose().nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).loose().nullish(),
    /** DeepSeek's own name for cached prompt tokens. */
    prompt_cache_hit_tokens: z.number().nullish(),
  })
  .loose()
  .nullish();
export type OpenAIUsage = z.infer<typeof OpenAIUsage>;

/** Reasoning text: `reasoning_content` (DeepSeek, Qwen, vLLM) or `reasoning` (OpenRouter, Ollama, newer vLLM). */
const WireReasoning = z.string().nullish();

export const OpenAIToolCall = z
  .object({
    id: z.string().nullish(),
    function: z.object({ name: z.string().nullish(), arguments: WireArguments }).loose(),
  })
  .loose();

export const OpenAIResponse = z
  .object({
    model: z.string().nullish(),
    choices: z
      .array(
        z
          .object({
            message: z
              .object({
                content: WireContent,
                reasoning_content: WireReasoning,
                reasoning: WireReasoning,
                tool_calls: z.array(OpenAIToolCall).nullish(),
                function_call: z.object({ name: z.string(), arguments: WireArguments }).loose().nullish(),
              })
              .loose(),
            finish_reason: z.string().nullish(),
          })
          .loose(),
      )
      .min(1),
    usage: OpenAIUsage,
  })
  .loose();
export type OpenAIResponse = z.infer<typeof OpenAIResponse>;

export const OpenAIToolCallDelta = z
  .object({
    index: z.number().nullish(),
    id: z.string().nullish(),
    function: z.object({ name: z.string().nullish(), arguments: WireArguments }).loose().nullish(),
  })
  .loose();
export type OpenAIToolCallDelta = z.infer<typeof OpenAIToolCallDelta>;

export const OpenAIChunk = z
  .object({
    choices: z
      .array(
        z
          .object({
            index: z.number().nullish(),
            delta: z
              .object({
                content: WireContent,
                reasoning_content: WireReasoning,
                reasoning: WireReasoning,
                tool_calls: z.array(OpenAIToolCallDelta).nullish(),
              })
              .loose()
              .nullish(),
            finish_reason: z.string().nullish(),
          })
          .loose(),
      )
      .nullish(),
    usage: OpenAIUsage,
  })
  .loose();
export type OpenAIChunk = z.infer<typeof OpenAIChunk>;

/** Flattens content given as a string or as an array of text parts. */
export function contentText(content: z.infer<typeof WireContent>): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => part.text ?? '').join('');
}

/** Arguments as the JSON text ToolCall carries: objects are stringified, missing ones become `{}`. */
export function argumentsText(value: z.infer<typeof WireArguments>): string {
  if (typeof value === 'string') return value;
  if (value) return JSON.stringify(value);
  return '';
}
