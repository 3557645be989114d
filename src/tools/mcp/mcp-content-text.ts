import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart } from '../../core/index.js';

type Block = CallToolResult['content'][number];
type Result = Pick<CallToolResult, 'content' | 'structuredContent'>;

/**
 * Turns an MCP tool result into observation text: text blocks as they are, other blocks as short
 * placeholders the model can reason about, and structured content as JSON when there is no text.
 */
export function mcpContentText(result: Result): string {
  const parts = (result.content ?? []).map(blockText);
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}

/**
 * Turns an MCP tool result into what a thinkflow tool returns: the text alone when it is all text,
 * else content parts in order (images and embedded image resources as image parts, audio and other
 * binary resources as file parts), so a model that reads them sees them and the others get a placeholder.
 */
export function mcpContentOutput(result: Result): string | ContentPart[] {
  const blocks = result.content ?? [];
  if (!blocks.some(isMedia)) return mcpContentText(result);
  return blocks.map((block): ContentPart => {
    if (block.type === 'image') return { type: 'image', data: block.data, mediaType: block.mimeType };
    if (block.type === 'audio') return { type: 'file', data: block.data, mediaType: block.mimeType };
    if (block.type === 'resource' && 'blob' in block.resource && typeof block.resource.blob === 'string') {
      const mediaType = block.resource.mimeType ?? 'application/octet-stream';
      const data = block.resource.blob;
      // An embedded image is an image to the model, as an image block is.
      return mediaType.startsWith('image/') ? { type: 'image', data, mediaType } : { type: 'file', data, mediaType };
    }
    return { type: 'text', text: blockText(block) };
  });
}

function isMedia(block: Block): boolean {
  return block.type === 'image' || block.type === 'audio' || (block.type === 'resource' && 'blob' in block.resource);
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource: ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string') return resource.text;
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]`;
    }
    default:
      return JSON.stringify(block);
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
