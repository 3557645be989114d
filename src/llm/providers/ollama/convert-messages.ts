import { ConfigError, type ContentPart, contentText, type Message, type ToolSpec } from '../../../core/index.js';
import { parseDataUrl } from '../media-url.js';
import { argumentsObject } from '../tool-arguments.js';

/** An /api/chat message as sent. Ollama wants tool-call arguments as an object, not a string. */
export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Base64 images, for vision models. */
  images?: string[];
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
}

/**
 * Converts thinkflow messages to Ollama /api/chat messages. Image parts go in the message's
 * `images` (base64 only: Ollama does not fetch URLs, so a URL that is not a `data:` URL is a
 * ConfigError rather than an image the model never sees, and so is a file).
 */
export function toOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  return messages.map((message): OllamaMessage => {
    if (message.role === 'tool') {
      const out: OllamaMessage = { role: 'tool', ...withImages(message.content) };
      if (message.name) out.tool_name = message.name;
      return out;
    }
    if (message.role === 'assistant' && message.toolCalls?.length) {
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map((call) => ({
          function: { name: call.name, arguments: argumentsObject(call.arguments) },
        })),
      };
    }
    if (message.role === 'user') return { role: 'user', ...withImages(message.content) };
    return { role: message.role, content: message.content };
  });
}

function withImages(content: string | ContentPart[]): { content: string; images?: string[] } {
  if (typeof content === 'string') return { content };
  const images = content.filter((part) => part.type !== 'text').map(base64Image);
  const text = contentText(content, { media: 'omit' });
  return images.length > 0 ? { content: text, images } : { content: text };
}

function base64Image(part: Exclude<ContentPart, { type: 'text' }>): string {
  if (part.type === 'file') {
    throw new ConfigError({ message: `ollama cannot read files (${part.mediaType}); send images or text.` });
  }
  if (!('url' in part)) return part.data;
  const inline = parseDataUrl(part.url);
  if (inline) return inline.data;
  throw new ConfigError({
    message: `ollama does not fetch image URLs (${part.url}); pass the image as { type: 'image', data, mediaType }.`,
  });
}

/** Converts tool specs to Ollama's `tools` array (the OpenAI function shape). */
export function toOllamaTools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
