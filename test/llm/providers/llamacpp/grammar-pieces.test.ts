import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  convertMessages,
  ollamaAvailable,
  prefixRules,
  reactGrammar,
  replySchema,
  toGrammarSchema,
} from '../../../../src/llm/providers/llamacpp/index.js';

describe('toGrammarSchema', () => {
  it('keeps the grammar-expressible subset and turns small integer ranges into enums', () => {
    expect(
      toGrammarSchema({
        type: 'object',
        description: 'dropped',
        properties: {
          city: { type: 'string', minLength: 1, pattern: '^[A-Z]' },
          days: { type: 'integer', minimum: 1, maximum: 3 },
          unit: { enum: ['c', 'f'] },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
          when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
        },
        required: ['city', 'ghost'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        days: { enum: [1, 2, 3] },
        unit: { enum: ['c', 'f'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
        when: { oneOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
      },
      required: ['city'],
      additionalProperties: false,
    });
  });

  it('widens what it cannot express instead of forbidding it', () => {
    expect(toGrammarSchema({})).toHaveProperty('oneOf');
    expect(toGrammarSchema({ $ref: '#/$defs/x' })).toHaveProperty('oneOf');
    expect(toGrammarSchema({ type: 'integer', minimum: 0, maximum: 1e9 })).toEqual({ type: 'integer' });
    expect(toGrammarSchema({ type: ['string', 'null'] })).toEqual({ type: ['string', 'null'] });
  });
});

describe('replySchema', () => {
  it('has one branch per tool plus a non-empty final_answer', () => {
    const schema = replySchema([{ name: 'calc', description: '', parameters: { type: 'object', properties: {} } }]);
    const branches = schema.oneOf as Array<{ properties: Record<string, unknown> }>;
    expect(branches.map((b) => b.properties.action)).toEqual([{ const: 'calc' }, { const: 'final_answer' }]);
    expect(branches[1].properties.action_input).toEqual({ type: 'string', minLength: 1 });
    expect(replySchema([])).toHaveProperty('properties.action', { const: 'final_answer' });
  });
});

describe('reactGrammar', () => {
  it('renames each tool grammar apart and leaves literals and classes alone', () => {
    expect(prefixRules('root ::= "root" [a-z] item\nitem ::= "x" | root', 'p-')).toBe(
      'p-root ::= "root" [a-z] p-item\np-item ::= "x" | p-root',
    );
    const gbnf = reactGrammar([{ name: 'calc', gbnf: 'root ::= "{" "}" "\\n\\n\\n\\n" [\\n]*' }]);
    expect(reactGrammar([{ gbnf: 'root ::= "{}"' }])).toContain('"Action: " tool-name "\\n" "Action Input: " t0-root');
    expect(gbnf).toContain(
      'root ::= "Thought: " line "\\n" ( "Action: calc\\n" "Action Input: " t0-root | "Final Answer: " answer )',
    );
    expect(gbnf).toContain('t0-root ::= "{" "}"');
    expect(gbnf).not.toContain('[\\n]*');
  });
});

describe('convertMessages', () => {
  it('maps roles to chat history and ends with an empty model turn', () => {
    expect(
      convertMessages([
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
        { role: 'assistant', content: 'a' },
        { role: 'tool', content: '42', toolCallId: 'c1', name: 'calc' },
      ]),
    ).toEqual([
      { type: 'system', text: 's' },
      { type: 'user', text: 'u' },
      { type: 'model', response: ['a'] },
      { type: 'user', text: 'Observation (calc): 42' },
      { type: 'model', response: [] },
    ]);
  });
});

describe('ollamaAvailable', () => {
  it('is true when a server answers /api/version and false on a closed port', async () => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/api/version' ? 200 : 404, { 'content-type': 'application/json' });
      res.end('{"version":"0.5.0"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    // Generous timeouts: the point is the answer, not the speed, on a busy machine.
    expect(await ollamaAvailable(`http://127.0.0.1:${port}`, 5000)).toBe(true);
    expect(await ollamaAvailable(`127.0.0.1:${port}`, 5000)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    expect(await ollamaAvailable(`http://127.0.0.1:${port}`, 5000)).toBe(false);
  });
});
