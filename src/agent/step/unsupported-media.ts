import { describePart, type Message, type MessageContent } from '../../core/index.js';

/**
 * For a model that reads no images or files: the messages with each media part replaced by a text
 * note saying what was left out, and how many were. The same messages come back when there were none.
 */
export function withoutMedia(messages: Message[], modelId: string): { messages: Message[]; dropped: number } {
  let dropped = 0;
  const strip = (content: MessageContent): MessageContent => {
    if (typeof content === 'string' || content.every((part) => part.type === 'text')) return content;
    return content.map((part) => {
      if (part.type === 'text') return part;
      dropped += 1;
      return { type: 'text', text: `${describePart(part)} (not shown: ${modelId} cannot read images or files)` };
    });
  };
  const out = messages.map((message): Message => {
    if (message.role === 'user' || message.role === 'tool') {
      const content = strip(message.content);
      return content === message.content ? message : { ...message, content };
    }
    return message;
  });
  return dropped > 0 ? { messages: out, dropped } : { messages, dropped };
}
