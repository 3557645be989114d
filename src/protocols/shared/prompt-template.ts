import type { Language } from '../protocol.js';

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
