import type { ContentPart, Message, ToolSpec } from '../../../core/index.js';
import { imageUrl } from '../media-url.js';
import { holdToolMedia } from '../tool-media.js';

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
  const out: OpenAIMessage[] = [];
  const toolMedia = holdToolMedia((parts) => out.push({ role: 'user', content: toOpenAIParts(parts) }));
  for (const message of messages) {
    if (message.role !== 'tool') toolMedia.flush();
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({
          role: 'user',
          content: typeof message.content === 'string' ? message.content : toOpenAIParts(message.content),
        });
        break;
      case 'assistant':
        out.push(assistantMessage(message));
        break;
      default:
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: toolMedia.toolText(message) });
    }
  }
  toolMedia.flush();
  return out;
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
    const extension = part.mediaType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
    return {
      type: 'file',
      file: {
        file_data: `data:${part.mediaType};base64,${part.data}`,
        filename: `attachment-${index + 1}.${extension}`,
      },
    };
  });
}

/** Converts tool specs to the `tools` array of chat completions. */
export function toOpenAITools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
