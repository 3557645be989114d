import { z } from 'zod';
import type { JsonSchema } from '../core/index.js';
import { coerceToSchema } from './coerce-to-schema.js';
import { normalizeJsonSchema } from './normalize-json-schema.js';
import { type DefineToolOptions, defineTool, type Tool, type ToolInputResult } from './tool.js';

type ObjectSchema = z.ZodType<Record<string, unknown>>;

export interface JsonSchemaToolOptions<O> extends Omit<DefineToolOptions<ObjectSchema, O>, 'input'> {
  /** JSON Schema of the input object (e.g. from an MCP server or an OpenAPI document). */
  parameters: JsonSchema;
  /**
   * Validates an input in place of zod's reading of the schema (which covers common keywords only).
   * MCP tools pass a full JSON Schema 2020-12 validator here.
   */
  validate?: (input: unknown) => ToolInputResult<Record<string, unknown>>;
}

/**
 * Builds a tool from a plain JSON Schema, for tools that come from MCP or OpenAPI. The schema is
 * sent to providers as given (without its `$schema` marker, kept in `schemaDialect`; type names of
 * other dialects such as `dict` or `float` read as JSON Schema's) and inputs are brought to it
 * (`"10"` for an integer) and validated against it.
 */
export function jsonSchemaTool<O>(options: JsonSchemaToolOptions<O>): Tool<Record<string, unknown>, O> {
  const { parameters: written, validate, ...rest } = options;
  // Function docs often write types in another dialect (`dict`, `float`, `STRING`): read them as JSON Schema.
  const given = normalizeJsonSchema(written);
  let schema: ObjectSchema;
  try {
    schema = validate
      ? z.record(z.string(), z.unknown())
      : (z.fromJSONSchema(normalizeJsonSchema(given, { defaults: false })) as ObjectSchema);
  } catch {
    // A schema zod cannot read still gets an object check, so the tool stays usable.
    schema = z.record(z.string(), z.unknown());
  }
  const tool = defineTool({ ...rest, input: schema });
  // Providers get the schema without its dialect marker; MCP lists the dialect again.
  const { $schema: dialect, ...parameters } = given;
  const check = validate ?? tool.parse;
  return {
    ...tool,
    parameters,
    schemaDialect: typeof dialect === 'string' ? dialect : undefined,
    // Values a model wrote in another type (`"10"` for an integer) are brought to the schema first.
    parse: (input: unknown) => check(coerceToSchema(input, given)),
  };
}
