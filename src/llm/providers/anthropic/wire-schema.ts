import { z } from 'zod';

// A limited, lenient version of the Messages API schema: only what we read. Block types we do not
// use (server_tool_use, web_search_tool_result, ...) pass through and are skipped.

/** Usage as sent; `input_tokens` excludes the tokens read from or written to the cache. */
export const AnthropicUsage = z
  .object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  })
  .loose()
  .nullish();
export type AnthropicUsage = z.infer<typeof AnthropicUsage>;

const Block = z
  .object({
    type: z.string(),
    text: z.string().nullish(),
    id: z.string().nullish(),
    name: z.string().nullish(),
    input: z.unknown().optional(),
    /** thinking blocks */
    thinking: z.string().nullish(),
    signature: z.string().nullish(),
    /** redacted_thinking blocks */
    data: z.string().nullish(),
  })
  .loose();

export const AnthropicResponse = z
  .object({ content: z.array(Block), stop_reason: z.string().nullish(), usage: AnthropicUsage })
  .loose();
export type AnthropicResponse = z.infer<typeof AnthropicResponse>;

/** One streaming event (`message_start`, `content_block_start`, `content_block_delta`, `message_delta`, ...). */
export const AnthropicEvent = z
  .object({
    type: z.string(),
    index: z.number().nullish(),
    message: z.object({ usage: AnthropicUsage }).loose().nullish(),
    content_block: Block.nullish(),
    delta: z
      .object({
        type: z.string().nullish(),
        text: z.string().nullish(),
        partial_json: z.string().nullish(),
        thinking: z.string().nullish(),
        signature: z.string().nullish(),
        stop_reason: z.string().nullish(),
      })
      .loose()
      .nullish(),
    usage: AnthropicUsage,
    error: z.object({ type: z.string().nullish(), message: z.string().nullish() }).loose().nullish(),
  })
  .loose();
export type AnthropicEvent = z.infer<typeof AnthropicEvent>;
