import type { JsonSchema, ToolSpec } from '../../core/index.js';

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
// Deeper schemas are written as `unknown`: a declaration is for reading, not for every corner of a schema.
const MAX_DEPTH = 6;

/**
 * The TypeScript declaration of the tools a program may call, from their JSON Schemas:
 * `declare const tools: { name(input: In): Promise<Out> }`, each with its description as a comment.
 * Tools marked `callableFromCode: false` are left out.
 *
 * @example
 * toolDeclarations(registry.specs());
 * // declare const tools: {
 * //   /** Price of one item. *\/
 * //   price(input: { item: string }): Promise<{ usd: number }>;
 * // };
 */
export function toolDeclarations(tools: readonly ToolSpec[]): string {
  const lines = ['declare const tools: {'];
  for (const tool of callableTools(tools)) {
    const description = tool.description.trim();
    if (description) lines.push(...docComment(description, '  '));
    const output = tool.output ? schemaType(tool.output, 1) : 'unknown';
    lines.push(`  ${propertyKey(tool.name)}(input: ${schemaType(tool.parameters, 1)}): Promise<${output}>;`);
  }
  lines.push('};');
  return lines.join('\n');
}

/** The tools code may call: all but those marked `callableFromCode: false`. */
export function callableTools<T extends ToolSpec>(tools: readonly T[]): T[] {
  return tools.filter((tool) => tool.callableFromCode !== false);
}

/** The TypeScript type a JSON Schema describes, on one line where it fits. */
export function schemaType(schema: JsonSchema | boolean | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (depth > MAX_DEPTH) return 'unknown';
  const s = schema as Record<string, unknown>;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(' | ') || 'never';
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union))
    return join(
      union.map((part) => schemaType(part, depth + 1)),
      ' | ',
    );
  if (Array.isArray(s.allOf))
    return join(
      (s.allOf as JsonSchema[]).map((part) => schemaType(part, depth + 1)),
      ' & ',
    );
  const type = s.type;
  if (Array.isArray(type))
    return join(
      type.map((t) => schemaType({ ...s, type: t } as JsonSchema, depth)),
      ' | ',
    );
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(s, depth);
    case 'object':
      return objectType(s, depth);
    default:
      return s.properties ? objectType(s, depth) : 'unknown';
  }
}

function arrayType(s: Record<string, unknown>, depth: number): string {
  if (Array.isArray(s.prefixItems)) {
    return `[${(s.prefixItems as JsonSchema[]).map((item) => schemaType(item, depth + 1)).join(', ')}]`;
  }
  const item = schemaType(s.items as JsonSchema | undefined, depth + 1);
  return /[|& ]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
}

function objectType(s: Record<string, unknown>, depth: number): string {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const fields = Object.entries(properties).map(([key, value]) => {
    const description = typeof value?.description === 'string' ? ` /** ${oneLine(value.description)} */` : '';
    const optional = required.has(key) ? '' : '?';
    return `${description ? `${description.trim()} ` : ''}${propertyKey(key)}${optional}: ${schemaType(value, depth + 1)}`;
  });
  const extra = s.additionalProperties;
  if (extra && typeof extra === 'object') fields.push(`[key: string]: ${schemaType(extra as JsonSchema, depth + 1)}`);
  if (fields.length === 0) return extra === false ? '{}' : 'Record<string, unknown>';
  return `{ ${fields.join('; ')} }`;
}

function join(parts: string[], separator: string): string {
  const unique = [...new Set(parts)];
  return unique.length === 0 ? 'unknown' : unique.join(separator);
}

function literal(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\*\//g, '* /').trim();
}

function docComment(text: string, indent: string): string[] {
  const lines = text.replace(/\*\//g, '* /').split('\n');
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`.trimEnd()), `${indent} */`];
}
