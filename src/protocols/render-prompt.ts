import type { Message } from '../core/index.js';
import type { BuiltPrompt } from './build-prompt.js';

/**
 * Prints a built prompt as plain text: one `--- role ---` block per message (tool calls and call ids
 * shown), then the tools field when there is one. Meant for terminals and logs.
 */
export function renderPrompt(prompt: BuiltPrompt): string {
  const blocks = prompt.messages.map(renderMessage);
  if (prompt.tools && prompt.tools.length > 0) {
    const tools = prompt.tools.map((t) => `${t.name}: ${t.description}\n  ${JSON.stringify(t.parameters)}`);
    blocks.push(`--- tools ---\n${tools.join('\n')}`);
  }
  return blocks.join('\n\n');
}

function renderMessage(message: Message): string {
  switch (message.role) {
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((c) => `[tool call ${c.id}] ${c.name}(${c.arguments})`);
      return [`--- assistant ---`, message.content, ...calls].filter(Boolean).join('\n');
    }
    case 'tool': {
      const label = message.name ? `tool ${message.name}` : 'tool';
      return `--- ${label} (${message.toolCallId}) ---\n${message.content}`;
    }
    default:
      return `--- ${message.role} ---\n${message.content}`;
  }
}
