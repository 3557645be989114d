/**
 * Prompt text as data, and how it is rendered: the template every protocol fills (one per language),
 * the system prompt assembled from it, the tool list for text prompts, and the corrective message
 * after an unreadable reply, written in the reply's own language.
 */

import type { JsonSchema, ToolSpec } from '../../core/index.js';
import type { CorrectionDetail, Language, PromptContext } from '../protocol.js';
import { keywordLabel } from './keywords.js';

/** The text pieces of one protocol in one language. Placeholders: `{tool_names}`, `{reason}`. */
export interface PromptTemplate {
  /** Used when no instructions are given. */
  defaultInstructions: string;
  /** Heading above the tool list; empty when tools travel in the request instead (native). */
  toolsHeading: string;
  /** Label in front of each tool's JSON Schema. */
  argumentsLabel: string;
  /** How to reply when tools are available; `{tool_names}` lists them. */
  format: string;
  /** How to reply when there are no tools. */
  formatNoTools: string;
  examplesHeading: string;
  contextHeading: string;
  /** The corrective message after an unreadable reply; `{reason}` says what was wrong. */
  correction: string;
  /** Asks for a final answer without tools (at the step limit). */
  finalAnswerRequest: string;
  /** Starts the user message that carries tool results (json and react). */
  observationPrefix: string;
  /** A worked example the caller may pass in `examples`. */
  example: string;
}

/** One template per language. */
export type PromptTemplates = Record<Language, PromptTemplate>;

/** Fills `{name}` placeholders; unknown ones are left as they are. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (all, key: string) => values[key] ?? all);
}

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

/**
 * Lists tools for a text prompt: one line per tool with its description, then its arguments as
 * compact JSON Schema (the `$schema` marker and `additionalProperties: false` are dropped: they cost
 * tokens and tell the model nothing).
 */
function renderTools(tools: readonly ToolSpec[], argumentsLabel: string): string {
  return tools
    .map(
      (t) =>
        `- ${t.name}: ${t.description.trim()}\n  ${argumentsLabel}: ${JSON.stringify(compactSchema(t.parameters))}`,
    )
    .join('\n');
}

/** A JSON Schema without the keys that carry no meaning for the model. */
function compactSchema(schema: JsonSchema): JsonSchema {
  return strip(schema) as JsonSchema;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '$schema' || (key === 'additionalProperties' && v === false)) continue;
    out[key] = strip(v);
  }
  return out;
}

/** The lines that quote the model and show the fix, per language. */
const LINES: Record<Language, { quote: string; fix: string }> = {
  en: { quote: 'You wrote:\n{quote}', fix: 'Write this instead:\n{fix}' },
  zh: { quote: '你写的是：\n{quote}', fix: '请改成：\n{fix}' },
};

/** The ReAct keywords a corrected line uses, in the reply's language. */
export const FIX_KEYWORDS: Record<Language, { action: string; input: string; final: string }> = {
  en: fixKeywords('en'),
  zh: fixKeywords('zh'),
};

function fixKeywords(language: Language): { action: string; input: string; final: string } {
  return {
    action: keywordLabel('action', language),
    input: keywordLabel('action_input', language),
    final: keywordLabel('final_answer', language),
  };
}

const HAN = /\p{Script=Han}/gu;
const LATIN = /[A-Za-z]/g;

/**
 * The language a reply is written in: Chinese when Han characters outnumber a third of its letters,
 * English when it has Latin letters, else `fallback` (the prompt's language). Corrections follow the
 * reply, so a model prompted in English that answers in Chinese is corrected in Chinese.
 */
export function replyLanguage(reply: string, fallback: Language): Language {
  const han = reply.match(HAN)?.length ?? 0;
  const latin = reply.match(LATIN)?.length ?? 0;
  if (han === 0 && latin === 0) return fallback;
  return han * 3 >= latin ? 'zh' : 'en';
}

/**
 * A correction from its template: the reason, then (when known) the model's own words quoted back
 * and the exact line to write instead, so a model that keeps a habit sees precisely what to change.
 */
export function renderCorrection(
  template: string,
  reason: string,
  language: Language,
  detail: CorrectionDetail = {},
): string {
  const parts = [fill(template, { reason })];
  const lines = LINES[language];
  if (detail.quote) parts.push(fill(lines.quote, { quote: shorten(detail.quote) }));
  if (detail.fix) parts.push(fill(lines.fix, { fix: detail.fix }));
  return parts.join('\n\n');
}

function shorten(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 300 ? `${trimmed.slice(0, 299)}…` : trimmed;
}
