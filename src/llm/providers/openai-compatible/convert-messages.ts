import type { Message, ToolSpec } from '../../../core/index.js';

/** A chat-completions message as sent on the wire. */
export type OpenAIMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Converts thinkflow messages to chat-completions messages. */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessage[] {
  return messages.map((message): OpenAIMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
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
      default:
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

/** Converts tool specs to the `tools` array of chat completions. */
export function toOpenAITools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
