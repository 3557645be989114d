import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_NAME_RULES, wireToolName } from '../../../src/entries/models.js';
import {
  Agent,
  anthropic,
  defineTool,
  gemini,
  type Model,
  type ModelRequest,
  type ModelResponse,
  ollama,
  openaiCompatible,
  openaiResponses,
  scriptedModel,
} from '../../../src/index.js';
import { withWireToolNames } from '../../../src/llm/providers/wire-tool-names.js';
import { anthropicMessage, anthropicStreamPieces } from './anthropic-server.js';
import { geminiFormat } from './gemini-server.js';
import { ollamaFormat } from './ollama-server.js';
import { openaiFormat } from './openai-server.js';
import { responsesFormat } from './responses-server.js';
import { type RecordedRequest, startWireServer, type WireFormat, type WireServer } from './wire-server.js';

// Each vendor's documented rule for function names.
const OPENAI = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC = /^[a-zA-Z0-9_-]{1,128}$/;
const GEMINI = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const NAMES = ['github.create_issue', 'fs/read_file', '查天气', '查汇率'];

/** The names of the tools a request sent, in each vendor's shape. */
function sentToolNames(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  return tools.flatMap((t) => {
    const fn = t.function as { name?: string } | undefined;
    const decls = t.functionDeclarations as { name: string }[] | undefined;
    return decls ? decls.map((d) => d.name) : [fn?.name ?? (t.name as string)];
  });
}

/** The wire name whose description starts with `name` (the real name heads the description). */
function wireNameOf(body: Record<string, unknown>, name: string): string {
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  const all = tools.flatMap((t) => {
    const decls = t.functionDeclarations as { name: string; description?: string }[] | undefined;
    const fn = (t.function ?? t) as { name: string; description?: string };
    return decls ?? [fn];
  });
  const found = all.find((t) => t.name === name || t.description?.startsWith(`${name}:`));
  if (!found) throw new Error(`no tool for ${name}`);
  return found.name;
}

const anthropicFormat: WireFormat = (response, request) =>
  request.body.stream
    ? { kind: 'stream', pieces: anthropicStreamPieces(response) }
    : { kind: 'json', body: anthropicMessage(response) };

const VENDORS: { name: string; rule: RegExp; format: WireFormat; model: (url: string) => Model }[] = [
  {
    name: 'openai-compatible',
    rule: OPENAI,
    format: openaiFormat,
    model: (url) => openaiCompatible({ baseURL: `${url}/v1`, apiKey: 'k', model: 'm', maxRetries: 0 }),
  },
  {
    name: 'openai responses',
    rule: OPENAI,
    format: responsesFormat,
    model: (url) => openaiResponses({ baseURL: `${url}/v1`, apiKey: 'k', model: 'm', maxRetries: 0 }),
  },
  {
    name: 'anthropic',
    rule: ANTHROPIC,
    format: anthropicFormat,
    model: (url) => anthropic({ baseURL: `${url}/v1`, apiKey: 'k', model: 'claude-test-1', maxRetries: 0 }),
  },
  {
    name: 'gemini',
    rule: GEMINI,
    format: geminiFormat,
    model: (url) => gemini({ baseURL: `${url}/v1beta`, apiKey: 'k', model: 'gemini-2.5-flash', maxRetries: 0 }),
  },
  {
    name: 'ollama',
    rule: OPENAI,
    format: ollamaFormat,
    model: (url) => ollama({ host: url.replace('http://', ''), model: 'qwen2.5:7b', maxRetries: 0 }),
  },
];

function tools(ran: string[]) {
  return NAMES.map((name) =>
    defineTool({
      name,
      description: `tool ${name}`,
      input: z.object({ q: z.string() }),
      run: ({ q }) => {
        ran.push(`${name}:${q}`);
        return 'ok';
      },
    }),
  );
}

describe('dotted, slashed and Unicode tool names on every provider', () => {
  const servers: WireServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  for (const vendor of VENDORS) {
    it(`${vendor.name}: every name goes out as the vendor's rule allows, and its calls come back by the real name`, async () => {
      let turn = 0;
      const server = await startWireServer((_r: ModelResponse, request: RecordedRequest) => {
        turn++;
        if (turn > 1) return vendor.format({ text: 'done' }, request);
        // The model calls every tool by the name it was sent under, in one reply.
        const toolCalls = NAMES.map((name, i) => ({
          id: `call_${i}`,
          name: wireNameOf(request.body, name),
          arguments: `{"q":"${i}"}`,
        }));
        return vendor.format({ text: '', toolCalls }, request);
      });
      servers.push(server);
      server.push('call', 'answer');
      const ran: string[] = [];
      const agent = new Agent({ model: vendor.model(server.url), tools: tools(ran), protocol: 'native' });
      const result = await agent.run('go');
      expect(result.status, JSON.stringify(result.error)).toBe('done');
      expect(ran.sort()).toEqual(NAMES.map((n, i) => `${n}:${i}`).sort());
      const [first, second] = server.requests;
      for (const wire of sentToolNames(first.body)) expect(wire).toMatch(vendor.rule);
      // The history sent back replays each call under its wire name, never the raw one.
      for (const name of NAMES.filter((n) => !vendor.rule.test(n))) {
        expect(JSON.stringify(second.body)).not.toContain(`"${name}"`);
      }
    });
  }

  it('a text call may use the real name or the alias any vendor was sent', async () => {
    const alias = wireToolName('github.create_issue', TOOL_NAME_RULES.openai);
    expect(alias).toMatch(OPENAI);
    const ran: string[] = [];
    const model = scriptedModel([`[${alias}(q="a"), github.create_issue(q="b"), github_create_issue(q="c")]`, 'done']);
    const agent = new Agent({ model, tools: tools(ran), protocol: 'json' });
    await agent.run('go');
    expect(ran).toEqual(['github.create_issue:a', 'github.create_issue:b', 'github.create_issue:c']);
  });

  it('llama.cpp: names go into the grammar wire-safe (promptTools), and come back by the real name', async () => {
    const seen: ModelRequest[] = [];
    const inner = scriptedModel((request) => {
      seen.push(request);
      return { text: 'ok' };
    });
    const model = withWireToolNames(inner, TOOL_NAME_RULES.llamacpp);
    await model.generate({
      messages: [{ role: 'user', content: 'hi' }],
      promptTools: NAMES.map((name) => ({ name, description: 'd', parameters: { type: 'object' } })),
    });
    for (const spec of seen[0].promptTools ?? []) expect(spec.name).toMatch(OPENAI);
  });
});
