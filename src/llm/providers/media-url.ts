import type { FilePart, ImagePart } from '../../core/index.js';

/** An image as a URL: its own, or a `data:` URL built from base64 data (what OpenAI's `image_url` takes). */
export function imageUrl(part: ImagePart): string {
  return 'url' in part ? part.url : `data:${part.mediaType};base64,${part.data}`;
}

/** A `data:` URL split into media type and base64 data, or undefined for other URLs. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1], data: match[2] } : undefined;
}

/** A file as a `data:` URL and a name with its extension (`attachment-2.pdf`), for APIs that take both. */
export function fileAttachment(part: FilePart, index: number): { data: string; filename: string } {
  const extension = part.mediaType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
  return { data: `data:${part.mediaType};base64,${part.data}`, filename: `attachment-${index + 1}.${extension}` };
}
