import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FewShotExample } from '../../src/entries/protocols.js';
import {
  Agent,
  type AgentEvent,
  anthropic,
  contentText,
  defineTool,
  gemini,
  type Model,
  ollama,
  openaiCompatible,
  openaiResponses,
  scriptedModel,
} from '../../src/index.js';
import { startAnthropicServer } from '../llm/providers/anthropic-server.js';
import { startGeminiServer } from '../llm/providers/gemini-server.js';
import { startOllamaServer } from '../llm/providers/ollama-server.js';
import { startOpenAIServer } from '../llm/providers/openai-server.js';
import { startResponsesServer } from '../llm/providers/responses-server.js';
import type { WireServer } from '../llm/providers/wire-server.js';
import { call } from './helpers.js';

const calculator = defineTool({
  name: 'calculator',
  description: 'Evaluates a math expression.',
  input: z.object({ expression: z.string() }),
  run: () => '230',
});

const EXAMPLE: FewShotExample = {
  question: '计算15的平方加上20除以4',
  calls: [{ thought: '这是数学计算。', tool: 'calculator', input: { expression: '15**2 + 20/4' }, observation: '230' }],
  answer: '结果是230。',
};

describe('Agent examples (few-shot), rendered by each protocol', () => {
  const system = async (protocol: 'react' | 'json' | 'native', language: 'en' | 'zh') => {
    const model = scriptedModel(['Final Answer: ok']);
    await new Agent({ model, tools: [calculator], protocol, language, examples: [EXAMPLE, 'Q: 1+1? A: 2'] }).run('x');
    return contentText(model.calls[0].messages[0].content);
  };

  it('react: the ReAct lines in the prompt language', async () => {
    const zh = await system('react', 'zh');
    expect(zh).toContain(
      '问题：计算15的平方加上20除以4\n思考：这是数学计算。\n行动：calculator\n行动输入：{"expression":"15**2 + 20/4"}\n观察：230\n最终答案：结果是230。',
    );
    expect(zh).toContain('Q: 1+1? A: 2');
    expect(await system('react', 'en')).toContain(
      'Action: calculator\nAction Input: {"expression":"15**2 + 20/4"}\nObservation: 230\nFinal Answer: 结果是230。',
    );
  });

  it('json: one JSON object per reply, with the observations between', async () => {
    const text = await system('json', 'en');
    expect(text).toContain(
      '{"thought":"这是数学计算。","action":"calculator","action_input":{"expression":"15**2 + 20/4"}}',
    );
    expect(text).toContain('{"action":"final_answer","action_input":"结果是230。"}');
  });

  it('native: a transcript of the calls', async () => {
    expect(await system('native', 'en')).toContain(
      'Call: calculator({"expression":"15**2 + 20/4"})\nResult: 230\nAnswer: 结果是230。',
    );
  });
});

describe('Agent temperature and topP reach every provider', () => {
  const servers: WireServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const vendors: {
    name: string;
    start: () => Promise<WireServer>;
    model: (url: string) => Model;
    read: (body: Record<string, unknown>) => unknown;
  }[] = [
    {
      name: 'openai-compatible',
      start: startOpenAIServer,
      model: (url) => openaiCompatible({ baseURL: `${url}/v1`, apiKey: 'k', model: 'm', maxRetries: 0 }),
      read: (b) => [b.temperature, b.top_p],
    },
    {
      name: 'openai responses',
      start: startResponsesServer,
      model: (url) => openaiResponses({ baseURL: `${url}/v1`, apiKey: 'k', model: 'm', maxRetries: 0 }),
      read: (b) => [b.temperature, b.top_p],
    },
    {
      name: 'anthropic',
      start: () => startAnthropicServer(),
      model: (url) => anthropic({ baseURL: `${url}/v1`, apiKey: 'k', model: 'm', maxRetries: 0 }),
      read: (b) => [b.temperature, b.top_p],
    },
    {
      name: 'gemini',
      start: startGeminiServer,
      model: (url) => gemini({ baseURL: `${url}/v1beta`, apiKey: 'k', model: 'm', maxRetries: 0 }),
      read: (b) => {
        const c = b.generationConfig as Record<string, unknown>;
        return [c?.temperature, c?.topP];
      },
    },
    {
      name: 'ollama',
      start: startOllamaServer,
      model: (url) => ollama({ host: url.replace('http://', ''), model: 'm', maxRetries: 0 }),
      read: (b) => {
        const o = b.options as Record<string, unknown>;
        return [o?.temperature, o?.top_p];
      },
    },
  ];
  for (const vendor of vendors) {
    it(vendor.name, async () => {
      const server = await vendor.start();
      servers.push(server);
      server.push('ok', 'ok');
      await new Agent({ model: vendor.model(server.url), temperature: 0.1, topP: 0.9 }).run('hi');
      expect(vendor.read(server.requests[0].body)).toEqual([0.1, 0.9]);
      await new Agent({ model: vendor.model(server.url) }).run('hi');
      expect(vendor.read(server.requests[1].body)).toEqual([undefined, undefined]);
    });
  }
});

describe('models.cheap', () => {
  it('writes the summaries of dropped steps when clearing old results is not enough, as docs/planning.md says', async () => {
    const wait = defineTool({
      name: 'wait',
      description: 'Waits.',
      input: z.object({ id: z.string() }),
      run: ({ id }) => `${id} ${'y'.repeat(1500)}`,
    });
    // Long arguments: the assistant turns alone outgrow the low-water mark once their results are cleared.
    const replies = Array.from({ length: 20 }, (_, i) => call('wait', { id: `step-${i}-${'x'.repeat(600)}` }, `c${i}`));
    const model = scriptedModel(() => replies.shift() ?? 'done', { contextWindow: 8_000 });
    const cheap = scriptedModel(['Summary: waited many times.']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools: [wait], maxSteps: 30, models: { cheap } }).run('Wait a lot', {
      onEvent: (e) => events.push(e),
    });
    expect(events.some((e) => e.type === 'context_summary')).toBe(true);
    expect(cheap.calls.length).toBeGreaterThan(0);
    expect(model.calls.every((c) => !contentText(c.messages[0].content).startsWith('Summarize'))).toBe(true);
  });
});
