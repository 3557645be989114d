import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServing, serveMcp } from '../../../src/server/index.js';
import { jsonSchemaTool } from '../../../src/tools/index.js';
import { type McpToolSet, mcpTools } from '../../../src/tools/mcp/index.js';

// Schemas zod's converter read only in part: `if`/`then` dropped all validation, `patternProperties`
// and `prefixItems` were not enforced.
const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    kind: { enum: ['file', 'url'] },
    path: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    tags: { type: 'object', patternProperties: { '^[a-z]+$': { type: 'number' } }, additionalProperties: false },
    point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    retries: { type: 'integer', default: 2 },
  },
  required: ['kind'],
  if: { properties: { kind: { const: 'file' } } },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
  then: { required: ['path'] },
  else: { required: ['url'] },
};

describe('MCP tools validate with the full JSON Schema 2020-12 (ajv)', { timeout: 30_000 }, () => {
  let serving: McpHttpServing;
  let set: McpToolSet;
  beforeAll(async () => {
    const fetchTool = jsonSchemaTool({
      name: 'fetch_it',
      description: 'Fetches.',
      parameters: SCHEMA,
      run: (input) => input,
    });
    serving = await serveMcp([fetchTool], { transport: 'http' });
    set = await mcpTools({ url: serving.url });
  });
  afterAll(async () => {
    await set?.close();
    await serving?.close();
  });

  const parse = (input: unknown) => set.tools[0].parse(input);

  it('keeps the dialect for MCP and leaves it out of what providers see', () => {
    expect(set.tools[0].schemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(set.tools[0].parameters).not.toHaveProperty('$schema');
  });

  it('enforces required next to if/then/else', () => {
    const empty = parse({});
    expect(empty.ok).toBe(false);
    if (!empty.ok)
      expect(empty.issues).toContainEqual(expect.objectContaining({ path: 'kind', message: 'is required' }));
    expect(parse({ kind: 'file' })).toMatchObject({ ok: false, issues: [{ path: 'path' }] });
    expect(parse({ kind: 'url', url: 'not a uri' })).toMatchObject({ ok: false, issues: [{ path: 'url' }] });
    expect(parse({ kind: 'file', path: 'a.txt' })).toEqual({
      ok: true,
      value: { kind: 'file', path: 'a.txt', retries: 2 },
    });
  });

  it('enforces patternProperties and prefixItems', () => {
    expect(parse({ kind: 'file', path: 'a', tags: { ok: 1, BAD: 2 } })).toMatchObject({
      ok: false,
      issues: [{ path: 'tags.BAD' }],
    });
    expect(parse({ kind: 'file', path: 'a', point: [1, 'two'] })).toMatchObject({
      ok: false,
      issues: [{ path: 'point.1' }],
    });
    expect(parse({ kind: 'file', path: 'a', point: [1, 2, 3] }).ok).toBe(false);
  });

  it('runs a valid call end to end, defaults filled in', async () => {
    const output = await set.tools[0].run(
      { kind: 'file', path: 'a.txt', retries: 2 },
      { signal: new AbortController().signal, runId: 'r', callId: 'c', logger: console, approve: async () => false },
    );
    expect(JSON.parse(String(output))).toEqual({ kind: 'file', path: 'a.txt', retries: 2 });
  });
});
