import { z } from 'zod';

// A limited, lenient version of Gemini's GenerateContentResponse: only what we read.

const Part = z
  .object({
    text: z.string().nullish(),
    /** A thought summary part (includeThoughts). */
    thought: z.boolean().nullish(),
    /** An opaque signature of the model's reasoning, to send back on the same part next turn. */
    thoughtSignature: z.string().nullish(),
    functionCall: z
      .object({
        id: z.string().nullish(),
        name: z.string().nullish(),
        args: z.record(z.string(), z.unknown()).nullish(),
      })
      .loose()
      .nullish(),
  })
  .loose();
export type GeminiWirePart = z.infer<typeof Part>;

/** Usage: `candidatesTokenCount` leaves out `thoughtsTokenCount`; `promptTokenCount` includes the cached part. */
export const GeminiUsage = z
  .object({
    promptTokenCount: z.number().nullish(),
    candidatesTokenCount: z.number().nullish(),
    thoughtsTokenCount: z.number().nullish(),
    cachedContentTokenCount: z.number().nullish(),
    toolUsePromptTokenCount: z.number().nullish(),
    totalTokenCount: z.number().nullish(),
  })
  .loose()
  .nullish();
export type GeminiUsage = z.infer<typeof GeminiUsage>;

/** One GenerateContentResponse: a whole reply, or one streamed chunk of it. */
export const GeminiResponse = z
  .object({
    candidates: z
      .array(
        z
          .object({
            content: z
              .object({ parts: z.array(Part).nullish(), role: z.string().nullish() })
              .loose()
              .nullish(),
            finishReason: z.string().nullish(),
          })
          .loose(),
      )
      .nullish(),
    promptFeedback: z.object({ blockReason: z.string().nullish() }).loose().nullish(),
    usageMetadata: GeminiUsage,
    error: z
      .object({ code: z.number().nullish(), message: z.string().nullish(), status: z.string().nullish() })
      .loose()
      .nullish(),
  })
  .loose();
export type GeminiResponse = z.infer<typeof GeminiResponse>;
