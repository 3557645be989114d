import { type ContentPart, contentText, type Message, mediaParts } from '../../core/index.js';

type ToolMessage = Extract<Message, { role: 'tool' }>;
type AssistantMessage = Extract<Message, { role: 'assistant' }>;

/** How a provider whose tool messages hold text only writes each message (see `convertWithToolMedia`). */
export interface TextToolTurns<Item, Part> {
  /** Content parts in the provider's shape: a user message's, and the media its tools returned. */
  parts: (parts: readonly ContentPart[]) => Part[];
  /** The items an assistant message becomes. */
  assistant: (message: AssistantMessage) => Item[];
  /** A tool result, its media taken out of `text` (which says how many follow). */
  tool: (message: ToolMessage, text: string) => Item;
}

/** A system or user message, which every such provider writes as `{ role, content }`. */
export type RoleMessage<Part> = { role: 'system'; content: string } | { role: 'user'; content: string | Part[] };

/**
 * Converts messages for a provider whose tool messages may only hold text (OpenAI's chat completions
 * and Responses APIs): system and user messages by role, assistants and tool results through `turns`.
 * The images and files a turn's tools returned are held back and travel in one user message right
 * after that turn's tool results; the tool text says how many follow.
 */
export function convertWithToolMedia<Item, Part>(
  messages: readonly Message[],
  turns: TextToolTurns<Item, Part>,
): (Item | RoleMessage<Part>)[] {
  const out: (Item | RoleMessage<Part>)[] = [];
  let held: ContentPart[] = [];
  const flush = () => {
    if (held.length === 0) return;
    out.push({ role: 'user', content: turns.parts([{ type: 'text', text: MEDIA_INTRO }, ...held]) });
    held = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    if (message.role === 'system') out.push({ role: 'system', content: message.content });
    else if (message.role === 'user') {
      const { content } = message;
      out.push({ role: 'user', content: typeof content === 'string' ? content : turns.parts(content) });
    } else if (message.role === 'assistant') out.push(...turns.assistant(message));
    else {
      const media = mediaParts(message.content);
      held.push(...media);
      out.push(turns.tool(message, contentText(message.content, { media: 'omit' }) + mediaNote(media.length)));
    }
  }
  flush();
  return out;
}

const MEDIA_INTRO = 'Attachments from the tool results above:';

function mediaNote(count: number): string {
  if (count === 0) return '';
  return `\n(${count === 1 ? '1 attachment follows' : `${count} attachments follow`} in the next user message.)`;
}
