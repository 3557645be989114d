import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceArguments } from '../../src/tools/coerce-arguments.js';
import { jsonSchemaTool } from '../../src/tools/json-schema-tool.js';
import { defineTool } from '../../src/tools/tool.js';

const weather = defineTool({
  name: 'weather',
  description: 'Weather for a city.',
  input: z.object({ city: z.string().describe('City name'), days: z.number().int().min(1).optional() }),
  run: () => 'sunny',
});

const search = defineTool({
  name: 'search',
  description: 'Searches.',
  input: z.object({ query: z.string(), limit: z.number(), lang: z.enum(['en', 'zh']) }),
  run: () => [],
});

const square = defineTool({
  name: 'square',
  description: 'Squares.',
  input: z.object({ n: z.number() }),
  run: ({ n }) => n * n,
});

describe('coerceArguments', () => {
  it('accepts an object', () => {
    expect(coerceArguments(weather, { city: 'Paris' })).toEqual({ ok: true, value: { city: 'Paris' } });
  });

  it('accepts a JSON string', () => {
    expect(coerceArguments(weather, '{"city": "Paris", "days": 2}')).toEqual({
      ok: true,
      value: { city: 'Paris', days: 2 },
    });
  });

  it('repairs a JSON string with a trailing comma', () => {
    expect(coerceArguments(weather, '{"city": "Paris",}')).toEqual({ ok: true, value: { city: 'Paris' } });
  });

  it('repairs single quotes and unquoted keys', () => {
    expect(coerceArguments(weather, "{city: 'Paris'}")).toEqual({ ok: true, value: { city: 'Paris' } });
  });

  it('unwraps double-encoded JSON', () => {
    expect(coerceArguments(weather, JSON.stringify(JSON.stringify({ city: 'Oslo' })))).toEqual({
      ok: true,
      value: { city: 'Oslo' },
    });
  });

  it('maps a bare string to the only required string field', () => {
    expect(coerceArguments(weather, 'Paris')).toEqual({ ok: true, value: { city: 'Paris' } });
    expect(coerceArguments(weather, '"New York"')).toEqual({ ok: true, value: { city: 'New York' } });
  });

  it('keeps the quotes of a bare string that only starts and ends with them', () => {
    expect(coerceArguments(weather, '"Foo" Bar')).toEqual({ ok: true, value: { city: '"Foo" Bar' } });
    expect(coerceArguments(weather, '"Foo" and "Bar"')).toEqual({ ok: true, value: { city: '"Foo" and "Bar"' } });
    expect(coerceArguments(weather, "'Foo' and 'Bar'")).toEqual({ ok: true, value: { city: "'Foo' and 'Bar'" } });
    expect(coerceArguments(weather, "'Paris'")).toEqual({ ok: true, value: { city: 'Paris' } });
  });

  it('maps a bare string that looks like JSON but is not an object as the text written', () => {
    const calc = defineTool({
      name: 'calc',
      description: 'x',
      input: z.object({ expression: z.string() }),
      run: () => 1,
    });
    expect(coerceArguments(calc, '[1, 2] * 3')).toEqual({ ok: true, value: { expression: '[1, 2] * 3' } });
    expect(coerceArguments(calc, '42')).toEqual({ ok: true, value: { expression: '42' } });
  });

  it('maps a bare number to the only required number field', () => {
    expect(coerceArguments(square, '7')).toEqual({ ok: true, value: { n: 7 } });
  });

  it('treats empty input as an empty object', () => {
    const none = defineTool({ name: 'now', description: 'x', input: z.object({}), run: () => 1 });
    expect(coerceArguments(none, '')).toEqual({ ok: true, value: {} });
    expect(coerceArguments(none, undefined)).toEqual({ ok: true, value: {} });
  });

  it('refuses a bare string when the schema has several required fields, with an example', () => {
    const result = coerceArguments(search, 'cats');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('expected a JSON object of arguments, got string "cats"');
    expect(result.message).toContain('Example of a valid call: search {"query":"text","limit":1,"lang":"en"}');
  });

  it('names each wrong type, what was expected and what came', () => {
    const result = coerceArguments(search, { query: 5, limit: 'ten', lang: 'fr' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toContain('Invalid input for tool "search":');
    expect(result.message).toContain('- "query": expected string, got number 5');
    expect(result.message).toContain('- "limit": expected number, got string "ten"');
    expect(result.message).toMatch(/- "lang": .*"en"\|"zh".*got string "fr"/);
    expect(result.message).toContain('Example of a valid call: search ');
  });

  it('names each missing field', () => {
    const result = coerceArguments(search, { query: 'cats' });
    expect(!result.ok && result.message).toContain('- "limit": missing required field (expected number)');
    expect(!result.ok && result.message).toContain('- "lang": missing required field');
  });

  it('drops extra fields for an ordinary object schema', () => {
    expect(coerceArguments(weather, { city: 'Paris', units: 'metric' })).toEqual({
      ok: true,
      value: { city: 'Paris' },
    });
  });

  it('reports extra fields when the schema forbids them', () => {
    const strict = defineTool({
      name: 'strict',
      description: 'x',
      input: z.strictObject({ a: z.number() }),
      run: () => 1,
    });
    const result = coerceArguments(strict, { a: 1, b: 2 });
    expect(!result.ok && result.message).toContain('Unrecognized key: "b"');
  });

  it('prefers the tool’s own examples for the example call', () => {
    const withExample = defineTool({
      name: 'lookup',
      description: 'x',
      input: z.object({ id: z.string().regex(/^u\d+$/) }),
      examples: [{ id: 'u42' }],
      run: () => 1,
    });
    const result = coerceArguments(withExample, { id: 7 });
    expect(!result.ok && result.message).toContain('Example of a valid call: lookup {"id":"u42"}');
  });

  it('validates tools built from a plain JSON Schema', () => {
    const tool = jsonSchemaTool({
      name: 'mcp_search',
      description: 'x',
      parameters: {
        type: 'object',
        properties: { q: { type: 'string' }, n: { type: 'integer', minimum: 2 } },
        required: ['q'],
      },
      run: () => 1,
    });
    expect(coerceArguments(tool, 'cats')).toEqual({ ok: true, value: { q: 'cats' } });
    const result = coerceArguments(tool, { n: 1 });
    expect(!result.ok && result.message).toContain('- "q": missing required field (expected string)');
    expect(!result.ok && result.message).toContain('Example of a valid call: mcp_search {"q":"text"}');
  });

  it('reads an unparseable JSON-ish string as bare text', () => {
    const many = coerceArguments(search, '{{{');
    expect(many.ok).toBe(false);
    expect(coerceArguments(weather, '{{{')).toEqual({ ok: true, value: { city: '{{{' } });
  });
});
