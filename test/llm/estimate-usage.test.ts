import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import type { Message, ModelResponse, ToolSpec } from '../../src/core/index.js';
import {
  estimateCompletionTokens,
  estimatePromptTokens,
  roughUsage,
  scriptedModel,
  withUsage,
} from '../../src/llm/index.js';
import { defineTool } from '../../src/tools/index.js';

const request = { messages: [{ role: 'user' as const, content: 'What is the weather in Paris today?' }] };

describe('usage estimation', () => {
  it('counts more tokens for longer prompts and for tool schemas', () => {
    const short = estimatePromptTokens(request);
    const long = estimatePromptTokens({ messages: [{ role: 'user', content: 'word '.repeat(200) }] });
    const withTools = estimatePromptTokens({
      ...request,
      tools: [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object' } }],
    });
    expect(short).toBeGreaterThan(8);
    expect(long).toBeGreaterThan(190);
    expect(withTools).toBeGreaterThan(short);
  });

  it('counts tool-call arguments in a reply', () => {
    const plain = estimateCompletionTokens({ text: 'ok' });
    const calls = estimateCompletionTokens({
      text: 'ok',
      toolCalls: [{ id: 'a', name: 'search', arguments: '{"q":"x"}' }],
    });
    expect(calls).toBeGreaterThan(plain);
  });

  it('keeps reported usage, fills only what is missing and marks it estimated', () => {
    expect(withUsage({ text: 'hi', usage: { promptTokens: 5, completionTokens: 1 } }, request).usage).toEqual({
      promptTokens: 5,
      completionTokens: 1,
    });
    const partial = withUsage({ text: 'hello there' }, request, { completionTokens: 2 }).usage;
    expect(partial).toMatchObject({ completionTokens: 2, estimated: true });
    expect(partial?.promptTokens).toBe(estimatePromptTokens(request));
    expect(withUsage({ text: 'hello there' }, request).usage?.estimated).toBe(true);
  });
});

describe('roughUsage', () => {
  // A question padded by 0-3 characters, so a count off by even one character shows in one of them.
  const conversation = (pad: number): Message[] => [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: `Add 1 and 1, then tell me.${'?'.repeat(pad)}` },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1,"b":1}' }] },
    { role: 'tool', content: '2', toolCallId: 'c1' },
  ];
  const spec = (name: string): ToolSpec => ({
    name,
    description: `The ${name} tool, “quoted” and 中文.`,
    parameters: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  });
  // What roughUsage means: every character of the prompt, its tool calls and the tools' JSON, four a token.
  const byLength = (messages: Message[], tools?: ToolSpec[]) => {
    let chars = tools?.length ? JSON.stringify(tools).length : 0;
    for (const m of messages) {
      chars += (m.content as string).length + 16;
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + c.arguments.length;
    }
    return Math.ceil(chars / 4);
  };

  it('is the prompt length over four, tool specs included, whether specs are frozen (a registry’s) or not', () => {
    const reply = { text: 'The answer is 2.' };
    for (const pad of [0, 1, 2, 3]) {
      const messages = conversation(pad);
      expect(roughUsage({ messages }, reply)).toEqual({
        promptTokens: byLength(messages),
        completionTokens: 4,
        estimated: true,
      });
      for (const tools of [[spec('add')], [spec('add'), spec('搜索'), spec('x')]]) {
        const frozen = tools.map((t) => Object.freeze({ ...t }));
        // Asked twice, and again with a new array of the same frozen specs (each run has its own array).
        for (const list of [tools, frozen, frozen, [...frozen]]) {
          expect(roughUsage({ messages, tools: list }, reply).promptTokens).toBe(byLength(messages, tools));
        }
      }
    }
  });

  it('counts a reply’s tool calls, and never fewer than one completion token', () => {
    const messages = conversation(0);
    const call = { id: 'c', name: 'add', arguments: '{"a":1,"b":2}' };
    expect(roughUsage({ messages }, { text: '', toolCalls: [call] }).completionTokens).toBe(4);
    expect(roughUsage({ messages }, { text: '' }).completionTokens).toBe(1);
  });

  it('gives a run the estimate of every request as sent, though the loop counts only each step’s new messages', async () => {
    const add = defineTool({
      name: 'add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => `和是 ${a + b}`,
    });
    const replies: (ModelResponse | string)[] = [
      { text: '先算第一个。', toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }] },
      {
        text: '',
        toolCalls: [
          { id: 'p1', name: 'add', arguments: '{"a":3,"b":4}' },
          { id: 'p2', name: 'add', arguments: '{"a":5,"b":6}' },
        ],
      },
      { text: '', toolCalls: [{ id: 'c3', name: 'nope', arguments: '{}' }] },
      '答案是 3、7 和 11。',
    ];
    const history: Message[] = [
      { role: 'user', content: '你好' },
      { role: 'assistant', content: '你好！有什么可以帮你？' },
    ];
    // The run's own projected prompt (counted as it grows), and a `beforeStep` that adds a message in
    // place to the array it is shown (counted whole).
    const plain = scriptedModel(replies);
    const pushed = scriptedModel(replies);
    const runs = [
      await new Agent({ model: plain, tools: [add], streaming: false }).run('把三组数加起来', { history }),
      await new Agent({
        model: pushed,
        tools: [add],
        beforeStep: (s) => {
          s.messages.push({ role: 'user', content: `第 ${s.step} 步的提醒` });
          return undefined;
        },
      }).run('把三组数加起来', { history }),
    ];
    for (const [i, model] of [plain, pushed].entries()) {
      const run = runs[i];
      expect(run.status).toBe('done');
      const expected = model.calls.reduce((sum, request, k) => {
        const given = replies[k];
        const reply = typeof given === 'string' ? { text: given } : given;
        return sum + roughUsage(request, reply).promptTokens;
      }, 0);
      expect(model.calls).toHaveLength(4);
      expect(run.usage.promptTokens).toBe(expected);
    }
    expect(pushed.calls[1].messages.at(-1)).toEqual({ role: 'user', content: '第 1 步的提醒' });
  });
});
