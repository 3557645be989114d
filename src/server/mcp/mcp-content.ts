import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serializeOutput } from '../../tools/index.js';

/** Audio a tool returns, as base64 `data` with its `mediaType` (e.g. `audio/wav`). */
export const AudioPart = z.object({ type: z.literal('audio'), data: z.string(), mediaType: z.string() });
export type AudioPart = z.infer<typeof AudioPart>;

/** A resource embedded in a result: text or base64 `data`, under its URI. */
export const ResourcePart = z.object({
  type: z.literal('resource'),
  uri: z.string(),
  mediaType: z.string().optional(),
  text: z.string().optional(),
  data: z.string().optional(),
});
export type ResourcePart = z.infer<typeof ResourcePart>;

/** A link to a resource the client can read (`resources/read`) when it wants it. */
export const ResourceLinkPart = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  mediaType: z.string().optional(),
  description: z.string().optional(),
});
export type ResourceLinkPart = z.infer<typeof ResourceLinkPart>;

/**
 * What a tool (or a prompt) served over MCP may return as parts, besides plain values: thinkflow's
 * own text, image and file parts, plus audio, embedded resources and resource links.
 */
export const McpContentPart = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mediaType: z.string() }),
  z.object({ type: z.literal('image'), url: z.string() }),
  z.object({ type: z.literal('file'), data: z.string(), mediaType: z.string() }),
  AudioPart,
  ResourcePart,
  ResourceLinkPart,
]);
export type McpContentPart = z.infer<typeof McpContentPart>;

const PART_TYPES = new Set(['text', 'image', 'file', 'audio', 'resource', 'resource_link']);

/** Reads a value as content parts when it is one part or an array of parts; undefined otherwise. */
export function readContentParts(value: unknown): McpContentPart[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const items: unknown[] = Array.isArray(value) ? value : [value];
  const first = items[0] as { type?: unknown } | undefined;
  if (!first || typeof first.type !== 'string' || !PART_TYPES.has(first.type)) return undefined;
  const parts: McpContentPart[] = [];
  for (const item of items) {
    const parsed = McpContentPart.safeParse(item);
    if (!parsed.success) return undefined;
    parts.push(parsed.data);
  }
  return parts;
}

/**
 * A tool's return value as MCP content: parts become the matching MCP content types (image, audio,
 * embedded resource, resource link); any other value is one text block (strings as they are,
 * the rest as JSON).
 */
export function toMcpContent(value: unknown): ContentBlock[] {
  const parts = readContentParts(value);
  if (!parts) return [{ type: 'text', text: serializeOutput(value) }];
  return parts.map(toBlock);
}

/** One part as an MCP content block. */
export function toBlock(part: McpContentPart, index = 0): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      if ('data' in part) return { type: 'image', data: part.data, mimeType: part.mediaType };
      const inline = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
      if (inline) return { type: 'image', data: inline[2], mimeType: inline[1] };
      return { type: 'resource_link', uri: part.url, name: part.url.split('/').pop() || part.url };
    }
    case 'audio':
      return { type: 'audio', data: part.data, mimeType: part.mediaType };
    case 'file':
      if (part.mediaType.startsWith('audio/')) return { type: 'audio', data: part.data, mimeType: part.mediaType };
      if (part.mediaType.startsWith('image/')) return { type: 'image', data: part.data, mimeType: part.mediaType };
      return {
        type: 'resource',
        resource: { uri: `thinkflow://attachment/${index + 1}`, mimeType: part.mediaType, blob: part.data },
      };
    case 'resource':
      return {
        type: 'resource',
        resource:
          part.data !== undefined
            ? { uri: part.uri, mimeType: part.mediaType, blob: part.data }
            : { uri: part.uri, mimeType: part.mediaType, text: part.text ?? '' },
      };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: part.uri,
        name: part.name,
        mimeType: part.mediaType,
        description: part.description,
      };
  }
}
