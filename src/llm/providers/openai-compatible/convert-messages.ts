import type { ContentPart, Message, ToolSpec } from '../../../core/index.js';
import { fileAttachment, imageUrl } from '../media-url.js';
import { convertWithToolMedia } from '../tool-media.js';

/** A chat-completions content part as sent. */
export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** A chat-completions message as sent on the wire. */
export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * Converts thinkflow messages to chat-completions messages. Images become `image_url` parts (base64
 * as a data URL) and files `file` parts. A tool message may only hold text, so the images a tool
 * returned travel in a user message right after that turn's tool results, and the tool text says so.
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessage[] {
  return convertWithToolMedia<OpenAIMessage, OpenAIContentPart>(messages, {
    parts: toOpenAIParts,
    assistant: (message) => [assistantMessage(message)],
    tool: (message, text) => ({ role: 'tool', tool_call_id: message.toolCallId, content: text }),
  });
}

function assistantMessage(message: Extract<Message, { role: 'assistant' }>): OpenAIMessage {
  // Reasoning is not sent back: DeepSeek rejects `reasoning_content` in requests, and others ignore it.
  if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
  return {
    role: 'assistant',
    // Several servers reject an empty string next to tool calls; null is the spec's "no text".
    content: message.content === '' ? null : message.content,
    tool_calls: message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

/** Content parts in the chat-completions shape. */
export function toOpenAIParts(parts: readonly ContentPart[]): OpenAIContentPart[] {
  return parts.map((part, index): OpenAIContentPart => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image') return { type: 'image_url', image_url: { url: imageUrl(part) } };
    const { data, filename } = fileAttachment(part, index);
    return { type: 'file', file: { file_data: data, filename } };
  });
}

/** Converts tool specs to the `tools` array of chat completions. */
export function toOpenAITools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
