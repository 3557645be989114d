import type { JsonSchema } from '../core/index.js';
import { synthesizeExample } from './synthesize-example.js';
import type { AnyTool } from './tool.js';

/** Facts about a tool's input schema that argument coercion needs, computed once per tool. */
export interface ToolInputShape {
  /** The field a bare value maps to: the schema's only required field, when there is exactly one. */
  soleField?: string;
  /** Whether `soleField` is a string field (bare strings map to it as they are). */
  soleFieldIsString: boolean;
  /** One valid input, as compact JSON, from the tool's `examples` or synthesised from its schema. */
  example(): string | undefined;
}

const shapes = new WeakMap<AnyTool, ToolInputShape>();

/** The cached input shape of a tool (no schema work on the per-call path after the first call). */
export function toolInputShape(tool: AnyTool): ToolInputShape {
  let shape = shapes.get(tool);
  if (!shape) {
    shape = computeShape(tool);
    shapes.set(tool, shape);
  }
  return shape;
}

function computeShape(tool: AnyTool): ToolInputShape {
  const schema = tool.parameters;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const soleField = required.length === 1 ? required[0] : undefined;
  const soleType = soleField ? properties[soleField]?.type : undefined;
  let example: string | undefined | null = null;
  return {
    soleField,
    soleFieldIsString: soleType === 'string' || (Array.isArray(soleType) && soleType.includes('string')),
    example() {
      if (example === null) example = computeExample(tool);
      return example;
    },
  };
}

function computeExample(tool: AnyTool): string | undefined {
  const candidates: unknown[] = [...(tool.examples ?? []), synthesizeExample(tool.parameters)];
  for (const candidate of candidates) {
    if (tool.parse(candidate).ok) return JSON.stringify(candidate);
  }
  return undefined;
}
