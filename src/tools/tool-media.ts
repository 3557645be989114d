import { ContentPart, contentText } from '../core/index.js';

type MediaPart = Exclude<ContentPart, { type: 'text' }>;

/**
 * Reads a tool's return value as content parts when it is one: an image or file part
 * (`{ type: 'image', data, mediaType }`), or an array of text, image and file parts. Returns the
 * observation text (text parts, with a placeholder per image) and the media to show the model, or
 * undefined for any other value, which is serialized as before.
 *
 * @example
 * // A chart tool returning its PNG so a vision model can look at it:
 * run: async () => [{ type: 'text', text: 'Chart of sales per product' }, { type: 'image', data: png.toString('base64'), mediaType: 'image/png' }]
 */
export function toolMedia(value: unknown): { text: string; media: MediaPart[] } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const items: unknown[] = Array.isArray(value) ? value : [value];
  // Most tools return plain objects: look at one field before asking zod.
  const first = items[0] as { type?: unknown } | undefined;
  if (!first || (first.type !== 'text' && first.type !== 'image' && first.type !== 'file')) return undefined;
  const parts: ContentPart[] = [];
  for (const item of items) {
    const parsed = ContentPart.safeParse(item);
    if (!parsed.success) return undefined;
    parts.push(parsed.data);
  }
  const media = parts.filter((part): part is MediaPart => part.type !== 'text');
  if (media.length === 0) return undefined;
  return { text: contentText(parts), media };
}
