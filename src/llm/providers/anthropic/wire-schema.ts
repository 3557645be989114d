import { z } from 'zod';

// A limited, lenient version of the Messages API schema: only what we read. Block types we do not
// read (server_tool_use, tool_search_tool_result, compaction, ...) pass through whole, to go back as they came.

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

/** What context editing did (`context_management.applied_edits`), when the request asked for it. */
export const AnthropicContextManagement = z
  .object({
    applied_edits: z
      .array(
        z
          .object({
            type: z.string(),
            cleared_input_tokens: z.number().nullish(),
            cleared_tool_uses: z.number().nullish(),
          })
          .loose(),
      )
      .nullish(),
  })
  .loose()
  .nullish();
export type AnthropicContextManagement = z.infer<typeof AnthropicContextManagement>;

export const AnthropicResponse = z
  .object({
    content: z.array(Block),
    stop_reason: z.string().nullish(),
    usage: AnthropicUsage,
    context_management: AnthropicContextManagement,
  })
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
        /** compaction_delta */
        content: z.string().nullish(),
        encrypted_content: z.string().nullish(),
      })
      .loose()
      .nullish(),
    usage: AnthropicUsage,
    context_management: AnthropicContextManagement,
    error: z.object({ type: z.string().nullish(), message: z.string().nullish() }).loose().nullish(),
  })
  .loose();
export type AnthropicEvent = z.infer<typeof AnthropicEvent>;
