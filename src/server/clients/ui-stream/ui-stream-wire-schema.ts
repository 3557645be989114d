import { z } from 'zod';

/**
 * The AI SDK UI message stream protocol (`ai` 6, `x-vercel-ai-ui-message-stream: v1`): what
 * `useChat` with `DefaultChatTransport` sends, and the chunks it reads back. A lenient schema of
 * the parts thinkflow reads; the rest of a UI message is accepted as it is.
 */

/** One part of a UI message: text, reasoning, a tool invocation (`tool-<name>` / `dynamic-tool`), a file, a step start... */
export const UiMessagePart = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  toolCallId: z.string().nullish(),
  toolName: z.string().nullish(),
  state: z.string().nullish(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  errorText: z.string().nullish(),
  approval: z.looseObject({ id: z.string(), approved: z.boolean().nullish(), reason: z.string().nullish() }).nullish(),
});
export type UiMessagePart = z.infer<typeof UiMessagePart>;

/** What thinkflow keeps in an assistant message's `metadata` (from the `start` chunk): the run that answers. */
export const UiThinkflowMetadata = z.looseObject({
  thinkflow: z.looseObject({ runId: z.string() }),
});
export type UiThinkflowMetadata = z.infer<typeof UiThinkflowMetadata>;

export const UiMessage = z.looseObject({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(UiMessagePart),
  metadata: z.unknown().optional(),
});
export type UiMessage = z.infer<typeof UiMessage>;

/** The body `DefaultChatTransport` posts: the chat id, every message, and why it sends. */
export const UiStreamBody = z.looseObject({
  /** The chat's id: the thinkflow session the conversation is kept in. */
  id: z.string().regex(/^[\w.:-]{1,128}$/, 'id must be 1 to 128 letters, digits, "_", ".", ":" or "-"'),
  messages: z.array(UiMessage).min(1, 'messages must hold at least one message').max(500),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().nullish(),
});
export type UiStreamBody = z.infer<typeof UiStreamBody>;

/** One chunk of the UI message stream, as `processUIMessageStream` reads it (only the kinds thinkflow writes). */
export type UiMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start' | 'text-end'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'reasoning-start' | 'reasoning-end'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic: true }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic: true }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic: true }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic: true }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'error'; errorText: string }
  | {
      type: 'finish';
      finishReason: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
      messageMetadata?: unknown;
    };

/** The headers of a UI message stream response (`createUIMessageStreamResponse`'s). */
export const UI_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
} as const;
