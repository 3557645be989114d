import type { Message, Step, ToolSpec } from '../core/index.js';
import { getProtocol } from './get-protocol.js';
import type { Language, PromptContext, Protocol, ProtocolName } from './protocol.js';

/** What to build a prompt from. Everything but the protocol is optional. */
export interface BuildPromptOptions {
  /** A protocol or its name. */
  protocol: Protocol | ProtocolName;
  instructions?: string;
  tools?: ToolSpec[];
  /** Default `en`. */
  language?: Language;
  examples?: string[];
  context?: string[];
  /** Earlier conversation turns, placed after the system message. */
  history?: Message[];
  /** The user's task, as the user message. */
  input?: string;
  /** Finished steps: the scratchpad, recorded with the protocol's `stepMessages`. */
  steps?: readonly Step[];
}

/** The exact request pieces a protocol produces: the messages and the `tools` field. */
export interface BuiltPrompt {
  messages: Message[];
  tools?: ToolSpec[];
}

/**
 * Builds the exact messages (and tools field) that will be sent for a protocol: system prompt,
 * history, the input, then every finished step. Printing this is the first debugging step.
 *
 * @example
 * const prompt = buildPrompt({ protocol: 'react', tools: [calculatorSpec], input: 'What is 2+2?' });
 * console.log(renderPrompt(prompt));
 */
export function buildPrompt(options: BuildPromptOptions): BuiltPrompt {
  const protocol = typeof options.protocol === 'string' ? getProtocol(options.protocol) : options.protocol;
  const language = options.language ?? 'en';
  const ctx: PromptContext = {
    tools: options.tools ?? [],
    language,
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(options.examples ? { examples: options.examples } : {}),
    ...(options.context ? { context: options.context } : {}),
  };
  const messages: Message[] = [{ role: 'system', content: protocol.systemPrompt(ctx) }, ...(options.history ?? [])];
  if (options.input !== undefined) messages.push({ role: 'user', content: options.input });
  for (const step of options.steps ?? []) messages.push(...protocol.stepMessages(step, language));
  const tools = protocol.requestTools(ctx);
  return tools ? { messages, tools } : { messages };
}

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
