import { describe, expect, it } from 'vitest';
import { coerceToSchema } from '../../src/tools/coerce-to-schema.js';
import { jsonSchemaTool } from '../../src/tools/json-schema-tool.js';
import { normalizeJsonSchema } from '../../src/tools/normalize-json-schema.js';

// Function docs as the Berkeley Function Calling Leaderboard writes them (Python type names, an
// `optional` flag, defaults written as strings): gorilla-llm's data/*.json, Apache-2.0.
const bfclDoc = {
  type: 'dict',
  properties: {
    n: { type: 'integer', description: 'How many.' },
    ratio: { type: 'float', description: 'A ratio.' },
    point: { type: 'tuple', items: { type: 'float' }, description: 'x and y.' },
    options: { type: 'dict', properties: { exact: { type: 'boolean' } } },
    detailed: { type: 'boolean', default: 'false', optional: true },
    anything: { type: 'any' },
  },
  required: ['n'],
};

describe('jsonSchemaTool with function docs in other dialects', () => {
  it('reads Python and OpenAPI type names as JSON Schema, for providers and validation alike', () => {
    const normalized = normalizeJsonSchema(bfclDoc) as { type: string; properties: Record<string, { type?: string }> };
    expect(normalized.type).toBe('object');
    expect(normalized.properties.ratio.type).toBe('number');
    expect(normalized.properties.point).toMatchObject({ type: 'array', items: { type: 'number' } });
    expect(normalized.properties.options.type).toBe('object');
    expect(normalized.properties.anything.type).toBeUndefined();
    expect(normalizeJsonSchema({ type: 'OBJECT', properties: { q: { type: 'STRING' } } })).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
    });
    const standard = { type: 'object', properties: { q: { type: 'string' } } };
    expect(normalizeJsonSchema(standard)).toBe(standard);

    const tool = jsonSchemaTool({ name: 'math.count', description: 'Counts.', parameters: bfclDoc, run: () => 'ok' });
    expect((tool.parameters as { type: string }).type).toBe('object');
    expect(tool.parse({ ratio: 0.5 }).ok).toBe(false); // n is required
    expect(tool.parse({ n: 'ten' }).ok).toBe(false);
  });

  it('brings values written in another type to the schema: "10" for an integer, "true" for a boolean', () => {
    const tool = jsonSchemaTool({ name: 'math.count', description: 'Counts.', parameters: bfclDoc, run: () => 'ok' });
    expect(tool.parse({ n: '10', ratio: '2.5', point: ['1', 2], options: '{"exact": "true"}' })).toEqual({
      ok: true,
      value: { n: 10, ratio: 2.5, point: [1, 2], options: { exact: true } },
    });
    expect(tool.parse({ n: '2.5' }).ok).toBe(false); // not an integer: the model is told
    expect(coerceToSchema(7, { type: 'string' })).toBe('7');
    // An enum option in another case or spacing is that option (Nexusflow Raven's `cuisine=['seafood']`).
    const cuisine = { type: 'array', items: { type: 'string', enum: ['Seafood', 'Gluten_free', 'seafood '] } };
    expect(coerceToSchema(['gluten free', 'GLUTEN-FREE'], cuisine)).toEqual(['Gluten_free', 'Gluten_free']);
    expect(coerceToSchema(['SEAFOOD'], cuisine)).toEqual(['SEAFOOD']); // two options spell it: left to validation
    expect(coerceToSchema('seven', { type: 'integer' })).toBe('seven');
  });

  it('hands the tool only what the model wrote: defaults are annotations, not values', () => {
    const tool = jsonSchemaTool({ name: 'cells', description: 'Cells.', parameters: bfclDoc, run: () => 'ok' });
    expect(tool.parse({ n: 3 })).toEqual({ ok: true, value: { n: 3 } });
    expect((tool.parameters as { properties: { detailed: unknown } }).properties.detailed).toMatchObject({
      default: 'false',
    });
  });
});
