import type { ContentPart, Message, ToolSpec } from '../../../core/index.js';
import { fileAttachment, imageUrl } from '../media-url.js';
import { convertWithToolMedia } from '../tool-media.js';

/** One Responses API input item, as sent. */
export type ResponsesInputItem =
  | { role: 'system' | 'user' | 'assistant'; content: string | ResponsesInputPart[] }
  | { type: 'reasoning'; id?: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content?: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  /** An item of the provider's own (compaction, tool search), sent back as it came. */
  | Record<string, unknown>;

export type ResponsesInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; file_data: string; filename: string };

/**
 * Converts thinkflow messages to Responses API input items: messages by role, an assistant's own
 * provider items as they came (a `compaction` item, hosted tool search calls and outputs), then its
 * reasoning items (with their encrypted content) before its function calls, and tool results as
 * `function_call_output`. Images a tool returned follow that turn's outputs in a user message.
 */
export function toResponsesInput(messages: readonly Message[]): ResponsesInputItem[] {
  return convertWithToolMedia<ResponsesInputItem, ResponsesInputPart>(messages, {
    parts: toResponsesParts,
    assistant: assistantItems,
    tool: (message, text) => ({ type: 'function_call_output', call_id: message.toolCallId, output: text }),
  });
}

/** An assistant message's provider items, then its reasoning items, its text, and its function calls. */
function assistantItems(message: Extract<Message, { role: 'assistant' }>): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const part of message.providerItems ?? []) {
    if (part.provider === 'openai-responses') items.push({ ...part.item });
  }
  for (const part of message.reasoning ?? []) {
    if (part.provider !== 'openai-responses') continue;
    const item: ResponsesInputItem = {
      type: 'reasoning',
      summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
    };
    if (part.id) item.id = part.id;
    if (part.encrypted) item.encrypted_content = part.encrypted;
    items.push(item);
  }
  if (message.content) items.push({ role: 'assistant', content: message.content });
  for (const call of message.toolCalls ?? []) {
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
  }
  return items;
}

function toResponsesParts(parts: readonly ContentPart[]): ResponsesInputPart[] {
  return parts.map((part, index): ResponsesInputPart => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    if (part.type === 'image') return { type: 'input_image', image_url: imageUrl(part) };
    const { data, filename } = fileAttachment(part, index);
    return { type: 'input_file', file_data: data, filename };
  });
}

/** Tool specs as Responses API function tools (flat: no nested `function` object). */
export function toResponsesTools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}
