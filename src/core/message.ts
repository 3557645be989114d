import { z } from 'zod';

/** A tool call requested by the model. `arguments` is the raw JSON text the model produced. */
export const ToolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** Text in a message. */
export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export type TextPart = z.infer<typeof TextPart>;

/**
 * An image, given by URL (`https:` or `data:`) or as base64 `data` with its `mediaType`
 * (`image/png`, `image/jpeg`, `image/gif`, `image/webp`).
 */
export const ImagePart = z.union([
  z.object({ type: z.literal('image'), url: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mediaType: z.string() }),
]);
export type ImagePart = z.infer<typeof ImagePart>;

/** A file as base64 `data` with its `mediaType` (e.g. `application/pdf`), for vendors that read files. */
export const FilePart = z.object({ type: z.literal('file'), data: z.string(), mediaType: z.string() });
export type FilePart = z.infer<typeof FilePart>;

/** One part of a user or tool message. */
export const ContentPart = z.union([TextPart, ImagePart, FilePart]);
export type ContentPart = z.infer<typeof ContentPart>;

/** What a user or tool message holds: plain text, or ordered parts (text, images, files). */
export const MessageContent = z.union([z.string(), z.array(ContentPart)]);
export type MessageContent = z.infer<typeof MessageContent>;

/**
 * Reasoning a model did before it answered, kept so it can be sent back unchanged on the next turn
 * (Anthropic rejects a tool-use turn whose thinking blocks are missing; the Responses API and Gemini
 * use it to continue their reasoning). Only the provider that made it reads `signature`/`encrypted`.
 */
export const ReasoningPart = z.object({
  type: z.literal('reasoning'),
  /** The visible reasoning text (may be empty when it was redacted or encrypted). */
  text: z.string(),
  /** The provider that produced it (`anthropic`, `openai-responses`, `gemini`, ...). */
  provider: z.string().optional(),
  /** An opaque token to send back unchanged: Anthropic's `signature`, Gemini's `thoughtSignature`. */
  signature: z.string().optional(),
  /** Reasoning the vendor hid: Anthropic `redacted_thinking` data, the Responses API's `encrypted_content`. */
  encrypted: z.string().optional(),
  /** The vendor's id for the reasoning item (Responses API). */
  id: z.string().optional(),
});
export type ReasoningPart = z.infer<typeof ReasoningPart>;

/**
 * A piece of a reply that only its provider reads, kept so it goes back exactly as it came on the next
 * turn: an OpenAI Responses `compaction` item, a hosted `tool_search_call` and its output, Anthropic's
 * `server_tool_use` and `tool_search_tool_result` blocks. Other providers skip it.
 */
export const ProviderItem = z.object({
  type: z.literal('provider_item'),
  /** The provider that produced it (`openai-responses`, `anthropic`). */
  provider: z.string(),
  /** The item or block as the provider sent it. */
  item: z.record(z.string(), z.unknown()),
});
export type ProviderItem = z.infer<typeof ProviderItem>;

/**
 * One chat message. User and tool messages hold text or parts (images and files); an assistant
 * message may carry the reasoning that led to it and its provider's own items. Tool results carry the id of the call they answer.
 */
export const Message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: MessageContent }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(ToolCall).optional(),
    reasoning: z.array(ReasoningPart).optional(),
    /** Its provider's own items (compaction, hosted tool search), sent back before the text and calls. */
    providerItems: z.array(ProviderItem).optional(),
  }),
  z.object({ role: z.literal('tool'), content: MessageContent, toolCallId: z.string(), name: z.string().optional() }),
]);
export type Message = z.infer<typeof Message>;
