import type { ProviderCompaction, ProviderItem } from '../../../core/index.js';
import type { AnthropicContextManagement } from './wire-schema.js';

/** Blocks the reply reads itself; any other block is the API's own, kept to go back as it came. */
const READ_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

/** Whether a content block is one of the API's own (a server tool's use or result, a compaction). */
export function isProviderBlock(type: string): boolean {
  return !READ_BLOCKS.has(type);
}

/** An API block kept for the next turn. */
export function providerBlock(block: Record<string, unknown>): ProviderItem {
  return { type: 'provider_item', provider: 'anthropic', item: block };
}

/**
 * What the API compacted on its side: each applied context edit (`clear_tool_uses_20250919` with the
 * tokens and tool uses it cleared), and a `compaction` block when the API summarized earlier turns.
 */
export function anthropicCompactions(
  management: AnthropicContextManagement,
  items: readonly ProviderItem[],
): ProviderCompaction[] {
  const compactions: ProviderCompaction[] = [];
  for (const edit of management?.applied_edits ?? []) {
    const compaction: ProviderCompaction = { kind: edit.type };
    if (edit.cleared_input_tokens != null) compaction.clearedTokens = edit.cleared_input_tokens;
    if (edit.cleared_tool_uses != null) compaction.clearedToolUses = edit.cleared_tool_uses;
    compactions.push(compaction);
  }
  if (items.some((i) => i.item.type === 'compaction')) compactions.push({ kind: 'compaction' });
  return compactions;
}
