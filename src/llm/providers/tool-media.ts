import { type ContentPart, contentText, type Message, mediaParts } from '../../core/index.js';

type ToolMessage = Extract<Message, { role: 'tool' }>;

/**
 * A tool message may only hold text, so the images and files a tool returned are held back and travel in
 * one user message right after that turn's tool results (`flush`); the tool text says how many follow.
 * `sendUser` turns the held parts (after a line that introduces them) into that user message.
 */
export function holdToolMedia(sendUser: (parts: ContentPart[]) => void): {
  toolText: (message: ToolMessage) => string;
  flush: () => void;
} {
  let held: ContentPart[] = [];
  return {
    toolText: (message) => {
      const media = mediaParts(message.content);
      const note =
        media.length > 0
          ? `\n(${media.length === 1 ? '1 attachment follows' : `${media.length} attachments follow`} in the next user message.)`
          : '';
      held.push(...media);
      return contentText(message.content, { media: 'omit' }) + note;
    },
    flush: () => {
      if (held.length === 0) return;
      sendUser([{ type: 'text', text: 'Attachments from the tool results above:' }, ...held]);
      held = [];
    },
  };
}
