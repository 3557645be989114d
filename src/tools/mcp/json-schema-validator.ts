import { importOptional, type JsonSchema } from '../../core/index.js';
import type { ToolInputIssue, ToolInputResult } from '../tool.js';

type Ajv2020 = import('ajv/dist/2020.js').default;
type AjvErrors = NonNullable<ReturnType<Ajv2020['compile']>['errors']>;

/** Checks one input against a JSON Schema: ok with the input (defaults filled in), or the issues. */
export type JsonSchemaCheck = (input: unknown) => ToolInputResult<Record<string, unknown>>;

let loaded: Promise<Ajv2020> | undefined;

/**
 * A full JSON Schema 2020-12 validator (ajv, with its formats), loaded once with the MCP path: an
 * optional peer, like the MCP SDK. Older drafts' `$schema` markers are read as 2020-12, which
 * keeps their common keywords (draft-07's `definitions` still resolve as JSON pointers).
 */
export async function jsonSchemaValidator(): Promise<(schema: JsonSchema) => JsonSchemaCheck> {
  loaded ??= (async () => {
    type AjvModule = typeof import('ajv/dist/2020.js');
    type FormatsModule = typeof import('ajv-formats');
    const [ajvModule, formatsModule] = await Promise.all([
      importOptional<AjvModule>('mcp', 'ajv', 'dist/2020.js'),
      importOptional<FormatsModule>('mcp', 'ajv-formats'),
    ]);
    const Ajv = (ajvModule as unknown as { default: AjvModule['default'] }).default ?? ajvModule;
    const ajv = new (Ajv as unknown as new (options: object) => Ajv2020)({
      allErrors: true,
      strict: false,
      useDefaults: true,
      validateFormats: true,
    });
    const addFormats = (formatsModule as unknown as { default: (ajv: Ajv2020) => void }).default;
    addFormats(ajv);
    return ajv;
  })().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  const ajv = await loaded;
  return (schema) => {
    const { $schema: dialect, $id: _id, ...rest } = schema;
    const is2020 = typeof dialect !== 'string' || dialect.includes('2020-12');
    let validate: ReturnType<Ajv2020['compile']>;
    try {
      validate = ajv.compile(is2020 && dialect ? { $schema: dialect, ...rest } : rest);
    } catch (error) {
      // A schema ajv cannot compile still gets an object check, so the tool stays usable.
      const why = error instanceof Error ? error.message : String(error);
      return (input) =>
        typeof input === 'object' && input !== null && !Array.isArray(input)
          ? { ok: true, value: input as Record<string, unknown> }
          : {
              ok: false,
              issues: [{ path: '', message: `expected an object (the tool's schema is unreadable: ${why})` }],
            };
    }
    return (input) => {
      // ajv fills in defaults in place: validate a copy, so the caller's object is left as it was.
      const value = structuredClone(input ?? {});
      if (validate(value)) return { ok: true, value: value as Record<string, unknown> };
      return { ok: false, issues: toIssues(validate.errors ?? []) };
    };
  };
}

function toIssues(errors: AjvErrors): ToolInputIssue[] {
  return errors
    .filter((error) => error.keyword !== 'if')
    .map((error) => {
      const base = error.instancePath.split('/').slice(1).map(unescapePointer);
      const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
      const extra = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : undefined;
      const path = [...base, ...(missing ? [missing] : extra ? [extra] : [])].join('.');
      const expected = error.keyword === 'type' ? String(error.params.type) : undefined;
      const message = missing
        ? 'is required'
        : extra
          ? 'is not allowed here'
          : (error.message ?? `fails ${error.keyword}`);
      return { path, message, expected };
    });
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
