import { createHash } from 'node:crypto';

/**
 * Prompt caching as Anthropic documents it (docs.anthropic.com/en/docs/build-with-claude/prompt-caching):
 * the prompt is the sequence tools → system → messages, cut into blocks; a block with `cache_control`
 * ends a cacheable prefix. A request reads the longest prefix already cached, found by looking back
 * from each breakpoint up to 20 blocks, and writes the prefixes ending at its breakpoints past that.
 * Prefixes under the model's minimum (1024 tokens for Sonnet/Opus) are not cached. Input tokens
 * reported exclude the tokens read and written. Tokens are counted as characters / 4.
 */
export function createPromptCache(options: { minTokens?: number; countAll?: boolean } = {}) {
  const minTokens = options.minTokens ?? 1024;
  const cached = new Set<string>();
  return {
    /** The usage counts for a request body, updating the cache. Undefined when it has no breakpoint (unless `countAll`). */
    account(body: Record<string, unknown>): { input: number; read: number; write: number } | undefined {
      const blocks = blocksOf(body);
      const breakpoints = blocks.flatMap((b, i) => (b.marked ? [i] : []));
      if (breakpoints.length === 0 && !options.countAll) return undefined;
      const tokens = blocks.map((b) => Math.ceil(b.text.length / 4));
      const upTo = (i: number) => tokens.slice(0, i + 1).reduce((n, t) => n + t, 0);
      const keys: string[] = [];
      const hash = createHash('sha256');
      for (const block of blocks) {
        hash.update(`${block.text}\u0000`);
        keys.push(hash.copy().digest('hex'));
      }
      let hit = -1;
      for (const point of breakpoints) {
        for (let i = point; i >= Math.max(0, point - 20); i--) {
          if (cached.has(keys[i]) && i > hit) hit = i;
        }
      }
      let written = hit;
      for (const point of breakpoints) {
        if (point > hit && upTo(point) >= minTokens) {
          cached.add(keys[point]);
          written = Math.max(written, point);
        }
      }
      const total = upTo(blocks.length - 1);
      const read = hit >= 0 ? upTo(hit) : 0;
      const write = written > hit ? upTo(written) - read : 0;
      return { input: total - read - write, read, write };
    },
  };
}

interface Block {
  text: string;
  marked: boolean;
}

function blocksOf(body: Record<string, unknown>): Block[] {
  const out: Block[] = [];
  const add = (value: unknown) => {
    const marked = typeof value === 'object' && value !== null && 'cache_control' in value;
    // The marker is not content: a block hashes the same with or without it.
    const { cache_control: _marker, ...content } = (marked ? value : { value }) as Record<string, unknown>;
    out.push({ text: JSON.stringify(marked ? content : value), marked });
  };
  for (const tool of (body.tools as unknown[]) ?? []) add(tool);
  if (typeof body.system === 'string') add({ type: 'text', text: body.system });
  else for (const block of (body.system as unknown[]) ?? []) add(block);
  for (const message of (body.messages as { content: unknown }[]) ?? []) {
    if (typeof message.content === 'string') add({ type: 'text', text: message.content });
    else for (const block of message.content as unknown[]) add(block);
  }
  return out;
}
