import type { PromptContext } from '../protocol.js';
import { fill, type PromptTemplate } from './prompt-template.js';
import { renderTools } from './render-tools.js';

/**
 * Assembles a system prompt from a template: instructions, the tool list (unless the template
 * leaves tools to the request), the reply format, few-shot examples and context blocks, in that order.
 */
export function renderSystemPrompt(template: PromptTemplate, ctx: PromptContext): string {
  const parts: string[] = [ctx.instructions?.trim() || template.defaultInstructions];
  const hasTools = ctx.tools.length > 0;
  if (hasTools && template.toolsHeading) {
    parts.push(`${template.toolsHeading}\n${renderTools(ctx.tools, template.argumentsLabel)}`);
  }
  const format = hasTools ? template.format : template.formatNoTools;
  if (format) parts.push(fill(format, { tool_names: ctx.tools.map((t) => t.name).join(', ') }));
  const examples = (ctx.examples ?? []).map((e) => e.trim()).filter(Boolean);
  if (examples.length > 0) parts.push(`${template.examplesHeading}\n\n${examples.join('\n\n---\n\n')}`);
  for (const block of ctx.context ?? []) {
    if (block.trim()) parts.push(`${template.contextHeading}\n${block.trim()}`);
  }
  return parts.join('\n\n');
}
