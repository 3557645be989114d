import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaTool } from '../../src/tools/json-schema-tool.js';
import { defineTool } from '../../src/tools/tool.js';

describe('defineTool', () => {
  const weather = defineTool({
    name: 'weather',
    description: 'Current weather for a city.',
    input: z.object({
      city: z.string().describe('City name, e.g. Paris'),
      unit: z.enum(['c', 'f']).default('c').describe('Temperature unit'),
    }),
    run: ({ city, unit }) => `${city} ${unit}`,
  });

  it('generates the JSON Schema from the zod schema once, field descriptions included', () => {
    expect(weather.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Paris' },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c', description: 'Temperature unit' },
      },
      required: ['city'],
    });
    expect(weather.parameters).not.toHaveProperty('$schema');
  });

  it('parses input with defaults applied, and reports issues with paths', () => {
    expect(weather.parse({ city: 'Paris' })).toEqual({ ok: true, value: { city: 'Paris', unit: 'c' } });
    const bad = weather.parse({ city: 3 });
    expect(bad).toEqual({
      ok: false,
      issues: [{ path: 'city', message: expect.stringContaining('expected string'), expected: 'string' }],
    });
  });

  it('refuses names providers would reject', () => {
    const make = (name: string) => () => defineTool({ name, description: 'x', input: z.object({}), run: () => 1 });
    expect(make('has space')).toThrow(/must be 1-128 letters/);
    expect(make('')).toThrow();
    expect(make('a'.repeat(129))).toThrow();
    expect(make('get_weather-2')).not.toThrow();
    // What MCP allows: dots, slashes, any script, up to 128 characters.
    for (const name of ['math.factorial', 'github.create_issue', 'fs/read_file', '查天气', 'a'.repeat(128)]) {
      expect(make(name)).not.toThrow();
    }
  });
});

describe('jsonSchemaTool', () => {
  it('sends the given JSON Schema as is and validates against it', () => {
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { q: { type: 'string', description: 'Query' } },
      required: ['q'],
    };
    const tool = jsonSchemaTool({ name: 'search', description: 'Searches.', parameters, run: ({ q }) => q });
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string', description: 'Query' } },
      required: ['q'],
    });
    expect(tool.parse({ q: 'cats' })).toEqual({ ok: true, value: { q: 'cats' } });
    expect(tool.parse({}).ok).toBe(false);
  });
});
