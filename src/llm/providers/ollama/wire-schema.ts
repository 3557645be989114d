import { z } from 'zod';

// A limited, lenient version of Ollama's /api/chat reply: one object per NDJSON line when
// streaming, one object otherwise. `thinking` (reasoning models) is kept as reasoning.

export const OllamaToolCall = z
  .object({
    id: z.string().nullish(),
    function: z
      .object({
        name: z.string().nullish(),
        arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
      })
      .loose(),
  })
  .loose();

export const OllamaChatChunk = z
  .object({
    message: z
      .object({
        content: z.string().nullish(),
        thinking: z.string().nullish(),
        tool_calls: z.array(OllamaToolCall).nullish(),
      })
      .loose()
      .nullish(),
    done: z.boolean().nullish(),
    done_reason: z.string().nullish(),
    prompt_eval_count: z.number().nullish(),
    eval_count: z.number().nullish(),
    error: z.string().nullish(),
  })
  .loose();
export type OllamaChatChunk = z.infer<typeof OllamaChatChunk>;
