import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serializeOutput } from '../../tools/index.js';

// Each part is read in thinkflow's spelling (`mediaType`, a flat resource) and in the MCP specification's
// (`mimeType`, a nested `resource`), so a server written from either keeps its content. What the spec
// lets a block carry besides (annotations, `_meta`, a link's title and size) goes through as it is.
const spec = { annotations: z.looseObject({}).optional(), _meta: z.record(z.string(), z.unknown()).optional() };
const mediaTypes = { mediaType: z.string().optional(), mimeType: z.string().optional() };
const hasMediaType = (part: { mediaType?: string; mimeType?: string }) =>
  (part.mediaType ?? part.mimeType) !== undefined;
const needsMediaType = { message: 'needs mimeType (or mediaType)' };

/** Text, as thinkflow and MCP both write it. */
const TextPart = z.object({ type: z.literal('text'), text: z.string(), ...spec });

/** An image: base64 `data` with its `mimeType` (MCP) or `mediaType` (thinkflow), or a `url`. */
const ImagePart = z.union([
  z.object({ type: z.literal('image'), data: z.string(), ...mediaTypes, ...spec }).refine(hasMediaType, needsMediaType),
  z.object({ type: z.literal('image'), url: z.string() }),
]);

/** Audio a tool returns, as base64 `data` with its `mimeType` (MCP) or `mediaType` (e.g. `audio/wav`). */
export const AudioPart = z
  .object({ type: z.literal('audio'), data: z.string(), ...mediaTypes, ...spec })
  .refine(hasMediaType, needsMediaType);
export type AudioPart = z.infer<typeof AudioPart>;

/** thinkflow's file part: base64 `data` and its media type. */
const FilePart = z
  .object({ type: z.literal('file'), data: z.string(), ...mediaTypes })
  .refine(hasMediaType, needsMediaType);

/**
 * A resource embedded in a result: MCP's `{ type: 'resource', resource: { uri, mimeType?, text | blob } }`,
 * or thinkflow's flat `{ type: 'resource', uri, mediaType?, text? | data? }`.
 */
export const ResourcePart = z.union([
  z.object({
    type: z.literal('resource'),
    resource: z.union([
      z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string(), _meta: spec._meta }),
      z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string(), _meta: spec._meta }),
    ]),
    ...spec,
  }),
  z.object({
    type: z.literal('resource'),
    uri: z.string(),
    ...mediaTypes,
    text: z.string().optional(),
    data: z.string().optional(),
  }),
]);
export type ResourcePart = z.infer<typeof ResourcePart>;

/** A link to a resource the client can read (`resources/read`) when it wants it. */
export const ResourceLinkPart = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  ...mediaTypes,
  size: z.number().optional(),
  icons: z.array(z.looseObject({ src: z.string() })).optional(),
  ...spec,
});
export type ResourceLinkPart = z.infer<typeof ResourceLinkPart>;

const PARTS = {
  text: TextPart,
  image: ImagePart,
  audio: AudioPart,
  file: FilePart,
  resource: ResourcePart,
  resource_link: ResourceLinkPart,
} as const;

/**
 * What a tool (or a prompt) served over MCP may return as parts, besides plain values: the MCP
 * specification's content blocks (text, image, audio, embedded resource, resource link) and
 * thinkflow's own text, image and file parts, flat resources and links.
 */
export const McpContentPart = z.union([TextPart, ImagePart, AudioPart, FilePart, ResourcePart, ResourceLinkPart]);
export type McpContentPart = z.infer<typeof McpContentPart>;

/** The shape to write for each part type, as a refusal names it. */
export const PART_SHAPES: Record<keyof typeof PARTS, string> = {
  text: "{ type: 'text', text }",
  image: "{ type: 'image', data: <base64>, mimeType } (MCP; thinkflow's mediaType too) or { type: 'image', url }",
  audio: "{ type: 'audio', data: <base64>, mimeType } (MCP; thinkflow's mediaType too)",
  file: "{ type: 'file', data: <base64>, mediaType }",
  resource:
    "{ type: 'resource', resource: { uri, mimeType?, text } } or { type: 'resource', resource: { uri, mimeType?, blob: <base64> } } (MCP), or thinkflow's { type: 'resource', uri, mediaType?, text? | data? }",
  resource_link: "{ type: 'resource_link', uri, name, mimeType?, description? }",
};

// Keys that say an object was meant as content, not as data that happens to have a `type`.
const CONTENT_KEYS = ['text', 'data', 'url', 'uri', 'resource', 'blob', 'mimeType', 'mediaType'];

/** What reading a value as content parts gave: the parts, or why they cannot be read. */
export type ReadParts = { ok: true; parts: McpContentPart[] } | { ok: false; message: string };

function isPartType(type: unknown): type is keyof typeof PARTS {
  return typeof type === 'string' && Object.hasOwn(PARTS, type);
}

/** True for an object with a part's `type` and one of a part's fields: meant as content. */
function looksLikePart(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return isPartType((value as { type?: unknown }).type) && CONTENT_KEYS.some((key) => key in value);
}

/**
 * Reads a value as content parts when it is meant as content: one part, or an array in which some item
 * is one (strings in it are text). Undefined for any other value (plain data, served as text). An
 * item that is not a readable part is refused, naming it and the shape to write, never dropped.
 */
export function readContentParts(value: unknown): ReadParts | undefined {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  if (!items.some(looksLikePart)) return undefined;
  const parts: McpContentPart[] = [];
  for (const [index, item] of items.entries()) {
    if (typeof item === 'string') {
      parts.push({ type: 'text', text: item });
      continue;
    }
    const type = (item as { type?: unknown } | null)?.type;
    const where = Array.isArray(value) ? `item ${index}` : 'the part';
    if (!isPartType(type)) {
      return {
        ok: false,
        message: `content MCP cannot read: ${where} is not a content part (its type is ${JSON.stringify(type)}); write one of ${Object.values(PART_SHAPES).join('; ')}.`,
      };
    }
    const parsed = PARTS[type].safeParse(item);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error.issues);
      return {
        ok: false,
        message: `content MCP cannot read: ${where} (type '${type}': ${issues}); write ${PART_SHAPES[type]}.`,
      };
    }
    parts.push(parsed.data);
  }
  return { ok: true, parts };
}

/** zod's issues as a few words, the alternatives of a union joined by "or". */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue): string => {
      const at = issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
      if (issue.code === 'invalid_union' && issue.errors.length > 0) {
        return issue.errors
          .map((branch) => describeIssues(branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }))))
          .join(', or ');
      }
      return issue.code === 'invalid_type' && issue.input === undefined ? `${at}is missing` : `${at}${issue.message}`;
    })
    .join('; ');
}

/**
 * A tool's return value as MCP content: parts become the matching MCP content blocks (image, audio,
 * embedded resource, resource link); any other value is one text block (strings as they are, the
 * rest as JSON). A value meant as content that cannot be read gives the refusal, naming the shape.
 */
export function toMcpContent(value: unknown): { ok: true; content: ContentBlock[] } | { ok: false; message: string } {
  const read = readContentParts(value);
  if (!read) return { ok: true, content: [{ type: 'text', text: serializeOutput(value) }] };
  if (!read.ok) return read;
  return { ok: true, content: read.parts.map(toBlock) };
}

/** One part as an MCP content block. */
export function toBlock(part: McpContentPart, index = 0): ContentBlock {
  switch (part.type) {
    case 'text':
      return part;
    case 'image': {
      if ('data' in part) return withSpec({ type: 'image', data: part.data, mimeType: mediaTypeOf(part) }, part);
      const inline = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
      if (inline) return { type: 'image', data: inline[2], mimeType: inline[1] };
      return { type: 'resource_link', uri: part.url, name: part.url.split('/').pop() || part.url };
    }
    case 'audio':
      return withSpec({ type: 'audio', data: part.data, mimeType: mediaTypeOf(part) }, part);
    case 'file': {
      const mimeType = mediaTypeOf(part);
      if (mimeType.startsWith('audio/')) return { type: 'audio', data: part.data, mimeType };
      if (mimeType.startsWith('image/')) return { type: 'image', data: part.data, mimeType };
      return { type: 'resource', resource: { uri: `thinkflow://attachment/${index + 1}`, mimeType, blob: part.data } };
    }
    case 'resource': {
      if ('resource' in part) return part;
      const mimeType = part.mediaType ?? part.mimeType;
      return {
        type: 'resource',
        resource:
          part.data !== undefined
            ? { uri: part.uri, mimeType, blob: part.data }
            : { uri: part.uri, mimeType, text: part.text ?? '' },
      };
    }
    case 'resource_link': {
      const { mediaType, mimeType, ...rest } = part;
      return { ...rest, mimeType: mimeType ?? mediaType };
    }
  }
}

function mediaTypeOf(part: { mediaType?: string; mimeType?: string }): string {
  // The schemas refuse a part with neither.
  return part.mimeType ?? part.mediaType ?? '';
}

/** A block with the part's annotations and `_meta`, when it has them. */
function withSpec<T extends ContentBlock>(
  block: T,
  part: { annotations?: object; _meta?: Record<string, unknown> },
): T {
  return {
    ...block,
    ...(part.annotations ? { annotations: part.annotations } : {}),
    ...(part._meta ? { _meta: part._meta } : {}),
  };
}
