import type { Message, ToolSpec } from '../../../core/index.js';

/** An /api/chat message as sent. Ollama wants tool-call arguments as an object, not a string. */
export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
}

/** Converts thinkflow messages to Ollama /api/chat messages. */
export function toOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  return messages.map((message): OllamaMessage => {
    if (message.role === 'tool') {
      const out: OllamaMessage = { role: 'tool', content: message.content };
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
    return { role: message.role, content: message.content };
  });
}

function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return { value };
  } catch {
    return text.trim() ? { _raw: text } : {};
  }
}

/** Converts tool specs to Ollama's `tools` array (the OpenAI function shape). */
export function toOllamaTools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
