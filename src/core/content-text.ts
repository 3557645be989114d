import type { ContentPart, MessageContent, ReasoningPart } from './message.js';

/** The media parts (images and files) of a message's content. */
export function mediaParts(content: MessageContent): Exclude<ContentPart, { type: 'text' }>[] {
  if (typeof content === 'string') return [];
  return content.filter((part): part is Exclude<ContentPart, { type: 'text' }> => part.type !== 'text');
}

/** How a media part is named in text: `[image: image/png]`, `[image: https://…]`, `[file: application/pdf]`. */
export function describePart(part: Exclude<ContentPart, { type: 'text' }>): string {
  if (part.type === 'file') return `[file: ${part.mediaType}]`;
  return 'url' in part
    ? `[image: ${part.url.startsWith('data:') ? 'inline data' : part.url}]`
    : `[image: ${part.mediaType}]`;
}

/**
 * A message's content as text. Text parts are joined by newlines; media parts become a short
 * placeholder (`[image: image/png]`) unless `media: 'omit'`, so nothing disappears from logs,
 * token counts or text-only views without a trace.
 */
export function contentText(content: MessageContent, options: { media?: 'describe' | 'omit' } = {}): string {
  if (typeof content === 'string') return content;
  const out: string[] = [];
  for (const part of content) {
    if (part.type === 'text') out.push(part.text);
    else if (options.media !== 'omit') out.push(describePart(part));
  }
  return out.join('\n');
}

/**
 * A rough token count for one media part, for budgets and estimates when the provider reports none.
 * Vendors bill an image by its pixels (Anthropic about w×h/750, at most ~1,600; OpenAI 85 to ~1,100),
 * which we do not decode, so an image counts as a typical 1,000. A file counts a token per 3 bytes.
 */
export function estimateMediaTokens(part: Exclude<ContentPart, { type: 'text' }>): number {
  if (part.type === 'file') return Math.max(256, Math.ceil((part.data.length * 3) / 4 / 3));
  return 1_000;
}

/** The readable text of reasoning parts, joined (redacted or encrypted parts have none). */
export function reasoningText(parts: readonly ReasoningPart[]): string {
  return parts
    .map((part) => part.text)
    .filter(Boolean)
    .join('\n');
}

/**
 * Text read from a file without the byte-order mark some editors put first (Excel's "CSV UTF-8", Windows
 * Notepad): left in, it sticks to the first CSV header, JSON key or YAML word and breaks it.
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
