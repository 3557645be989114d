import { z } from 'zod';

// A limited, lenient version of the Responses API objects: only what we read.

/** One output item: a message, a function call or a reasoning item (others pass through unread). */
export const ResponsesOutputItem = z
  .object({
    type: z.string(),
    id: z.string().nullish(),
    /** message */
    content: z.array(z.object({ type: z.string(), text: z.string().nullish() }).loose()).nullish(),
    /** function_call */
    call_id: z.string().nullish(),
    name: z.string().nullish(),
    /** A string for function_call; an object for tool_search_call (kept as it came). */
    arguments: z.unknown().optional(),
    /** reasoning */
    summary: z.array(z.object({ text: z.string().nullish() }).loose()).nullish(),
    encrypted_content: z.string().nullish(),
  })
  .loose();
export type ResponsesOutputItem = z.infer<typeof ResponsesOutputItem>;

export const ResponsesUsage = z
  .object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    input_tokens_details: z.object({ cached_tokens: z.number().nullish() }).loose().nullish(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).loose().nullish(),
  })
  .loose()
  .nullish();

const ResponsesError = z.object({ code: z.string().nullish(), message: z.string().nullish() }).loose().nullish();

/** A Response object (a whole reply, or the one carried by `response.completed`). */
export const ResponsesResponse = z
  .object({
    status: z.string().nullish(),
    output: z.array(ResponsesOutputItem),
    usage: ResponsesUsage,
    incomplete_details: z.object({ reason: z.string().nullish() }).loose().nullish(),
    error: ResponsesError,
  })
  .loose();
export type ResponsesResponse = z.infer<typeof ResponsesResponse>;

/** One streaming event: `response.output_text.delta`, `response.completed`, `error`, ... */
export const ResponsesEvent = z
  .object({
    type: z.string(),
    delta: z.string().nullish(),
    output_index: z.number().nullish(),
    item: ResponsesOutputItem.nullish(),
    response: z.object({ error: ResponsesError }).loose().nullish(),
    message: z.string().nullish(),
    code: z.string().nullish(),
  })
  .loose();
