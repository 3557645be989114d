import { ConfigError, type ContentPart, type Message, type ReasoningPart, type ToolSpec } from '../../../core/index.js';
import { parseDataUrl } from '../media-url.js';
import { argumentsObject } from '../tool-arguments.js';

/** Marks the end of a prompt prefix the API should cache (`ephemeral`: five minutes, refreshed on use). */
export interface CacheControl {
  type: 'ephemeral';
}

type MediaSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: 'text/plain'; data: string };

/** A content block of the Messages API, as sent. */
export type AnthropicBlock = (
  | { type: 'text'; text: string }
  | { type: 'image'; source: MediaSource }
  | { type: 'document'; source: MediaSource }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicBlock[] }
  /** A block of the API's own (`server_tool_use`, `tool_search_tool_result`, `compaction`), sent back as it came. */
  | { type: string; [key: string]: unknown }
) & { cache_control?: CacheControl };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** The converted request pieces: the system blocks (if any) and the alternating messages. */
export interface AnthropicPrompt {
  /** A string, or one text block carrying the cache breakpoint. */
  system?: string | { type: 'text'; text: string; cache_control: CacheControl }[];
  messages: AnthropicMessage[];
}

/**
 * Converts thinkflow messages to the Messages API: system messages become the top-level `system`
 * blocks; tool results become `tool_result` blocks in a user message (with their images); images
 * and PDFs become `image`/`document` blocks; an assistant's Anthropic reasoning goes back first, as
 * the `thinking`/`redacted_thinking` blocks it came as, signatures unchanged, then its server blocks
 * (a tool search's `server_tool_use` and result) as they came. Consecutive messages of
 * the same role are merged, because the API requires user and assistant to alternate.
 * With `cache`, the system prompt and the last user or tool turn end in a cache breakpoint.
 */
export function toAnthropicMessages(messages: readonly Message[], options: { cache?: boolean } = {}): AnthropicPrompt {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  const prompt: AnthropicPrompt = { messages: out };
  if (system.length > 0) {
    const text = system.join('\n\n');
    prompt.system = options.cache ? [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] : text;
  }
  if (options.cache) markLastUserTurn(out);
  return prompt;
}

/**
 * Puts a breakpoint on the last block of the last user turn, so each step reads the previous
 * steps' prefix from the cache and writes its own (the API looks back up to 20 blocks for a hit).
 */
function markLastUserTurn(messages: AnthropicMessage[]): void {
  const turn = messages.findLast((m) => m.role === 'user');
  const block = turn?.content.findLast((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
  if (block) block.cache_control = { type: 'ephemeral' };
}

function blocksOf(message: Exclude<Message, { role: 'system' }>): AnthropicBlock[] {
  switch (message.role) {
    case 'user':
      if (typeof message.content === 'string') return message.content ? [{ type: 'text', text: message.content }] : [];
      return message.content.map(toAnthropicPart);
    case 'tool':
      return [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: typeof message.content === 'string' ? message.content : message.content.map(toAnthropicPart),
        },
      ];
    default: {
      const blocks: AnthropicBlock[] = thinkingBlocks(message.reasoning);
      for (const part of message.providerItems ?? []) {
        if (part.provider === 'anthropic') blocks.push({ ...part.item } as AnthropicBlock);
      }
      if (message.content) blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) });
      }
      return blocks;
    }
  }
}

/** Anthropic's own reasoning, as it came; reasoning from other providers has no valid signature here. */
function thinkingBlocks(reasoning: readonly ReasoningPart[] | undefined): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  for (const part of reasoning ?? []) {
    if (part.provider !== 'anthropic') continue;
    if (part.encrypted !== undefined) blocks.push({ type: 'redacted_thinking', data: part.encrypted });
    else if (part.signature !== undefined)
      blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
  }
  return blocks;
}

/** A content part as a Messages API block: text, an image (URL or base64), or a document. */
export function toAnthropicPart(part: ContentPart): AnthropicBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image') {
    if (!('url' in part))
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
    const inline = parseDataUrl(part.url);
    return {
      type: 'image',
      source: inline
        ? { type: 'base64', media_type: inline.mediaType, data: inline.data }
        : { type: 'url', url: part.url },
    };
  }
  if (part.mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
  }
  if (part.mediaType.startsWith('text/')) {
    const text = Buffer.from(part.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } };
  }
  throw new ConfigError({
    message: `anthropic cannot read a file of type ${part.mediaType}: send PDFs, text files or images.`,
  });
}

/** Anthropic's tool search: which search tool, and the tools loaded up front (all others are deferred). */
export interface AnthropicToolSearch {
  kind: 'bm25' | 'regex';
  keep?: readonly string[];
}

/**
 * Converts tool specs to the Messages API `tools` array; with `cache`, the last one loaded up front ends
 * a breakpoint. With `search`, the tool search tool comes first and every tool it may find is sent
 * with `defer_loading: true` (deferred tools stay out of the prompt, so the cached prefix holds).
 */
export function toAnthropicTools(
  tools: readonly ToolSpec[],
  options: { cache?: boolean; search?: AnthropicToolSearch } = {},
) {
  const { search } = options;
  const keep = new Set(search?.keep);
  const out: Record<string, unknown>[] = [];
  if (search) out.push({ type: `tool_search_tool_${search.kind}_20251119`, name: `tool_search_tool_${search.kind}` });
  for (const tool of tools) {
    const entry: Record<string, unknown> = {
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    };
    if (search && !keep.has(tool.name)) entry.defer_loading = true;
    out.push(entry);
  }
  const last = out.findLast((t) => t.defer_loading !== true);
  if (options.cache && last) last.cache_control = { type: 'ephemeral' } satisfies CacheControl;
  return out;
}
