import type { JsonSchema, ToolSpec } from '../../core/index.js';

/**
 * Lists tools for a text prompt: one line per tool with its description, then its arguments as
 * compact JSON Schema (the `$schema` marker and `additionalProperties: false` are dropped: they cost
 * tokens and tell the model nothing).
 */
export function renderTools(tools: readonly ToolSpec[], argumentsLabel: string): string {
  return tools
    .map(
      (t) =>
        `- ${t.name}: ${t.description.trim()}\n  ${argumentsLabel}: ${JSON.stringify(compactSchema(t.parameters))}`,
    )
    .join('\n');
}

/** A JSON Schema without the keys that carry no meaning for the model. */
export function compactSchema(schema: JsonSchema): JsonSchema {
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
