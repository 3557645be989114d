import type { Message, ToolSpec } from '../../../core/index.js';

/** A content block of the Messages API, as sent. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/**
 * Converts thinkflow messages to the Messages API: system messages become the top-level
 * `system` string; tool results become `tool_result` blocks in a user message; consecutive
 * messages of the same role are merged, because the API requires user and assistant to alternate
 * (so several tool results answering one turn travel in one user message).
 */
export function toAnthropicMessages(messages: readonly Message[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return system.length > 0 ? { system: system.join('\n\n'), messages: out } : { messages: out };
}

function blocksOf(message: Exclude<Message, { role: 'system' }>): AnthropicBlock[] {
  switch (message.role) {
    case 'user':
      return message.content ? [{ type: 'text', text: message.content }] : [];
    case 'tool':
      return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }];
    default: {
      const blocks: AnthropicBlock[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: inputOf(call.arguments) });
      }
      return blocks;
    }
  }
}

/** tool_use.input must be an object; arguments the model got wrong are kept rather than dropped. */
function inputOf(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value };
  } catch {
    return { _raw: text };
  }
}

/** Converts tool specs to the Messages API `tools` array. */
export function toAnthropicTools(tools: readonly ToolSpec[]) {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}
