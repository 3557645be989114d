import { contentText, type Message } from '../../../core/index.js';

/** node-llama-cpp's chat history item (the subset thinkflow writes). */
export type ChatHistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: string[] };

/**
 * Maps thinkflow messages to a node-llama-cpp chat history ending with an empty model turn to fill.
 * The model's own chat template renders it. Tool results become user turns (this provider has no
 * native tool calling; the json and react protocols send observations as text anyway).
 */
export function convertMessages(messages: readonly Message[]): ChatHistoryItem[] {
  const history = messages.map(toItem);
  history.push({ type: 'model', response: [] });
  return history;
}

function toItem(message: Message): ChatHistoryItem {
  if (message.role === 'system') return { type: 'system', text: message.content };
  // This provider reads no images (its capabilities say so, and the agent warns); a placeholder
  // keeps any that reach it visible rather than silently gone.
  if (message.role === 'user') return { type: 'user', text: contentText(message.content) };
  if (message.role === 'assistant') return { type: 'model', response: [message.content] };
  return {
    type: 'user',
    text: `Observation${message.name ? ` (${message.name})` : ''}: ${contentText(message.content)}`,
  };
}
