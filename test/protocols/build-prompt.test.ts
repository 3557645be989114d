import { describe, expect, it } from 'vitest';
import type { Step, ToolSpec } from '../../src/core/index.js';
import { buildPrompt, getProtocol, reactPrompt, reactProtocol, renderPrompt } from '../../src/protocols/index.js';

const calculator: ToolSpec = {
  name: 'calculator',
  description: 'Evaluates a math expression.',
  parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
};
const clock: ToolSpec = { name: 'clock', description: 'Current time.', parameters: { type: 'object', properties: {} } };

describe('buildPrompt', () => {
  it('builds the system prompt, the input and the tools field for native', () => {
    const prompt = buildPrompt({ protocol: 'native', tools: [calculator], input: 'What is 2+2?' });
    expect(prompt.tools).toEqual([calculator]);
    expect(prompt.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(prompt.messages[1].content).toBe('What is 2+2?');
  });

  it('renders the English ReAct format with tool names and schemas', () => {
    const { messages, tools } = buildPrompt({ protocol: 'react', tools: [calculator, clock] });
    const system = messages[0].content;
    expect(tools).toBeUndefined();
    expect(system).toContain('Action: the tool to use, one of [calculator, clock]');
    expect(system).toContain('- calculator: Evaluates a math expression.');
    expect(system).toContain(
      'arguments (JSON Schema): {"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}',
    );
    expect(system).toContain('Final Answer:');
  });

  it('renders the Chinese ReAct format with Chinese keywords', () => {
    const system = buildPrompt({ protocol: 'react', tools: [calculator], language: 'zh' }).messages[0].content;
    for (const keyword of ['思考：', '行动：', '行动输入：', '观察：', '最终答案：', '参数（JSON Schema）']) {
      expect(system).toContain(keyword);
    }
    expect(system).not.toContain('Action Input:');
  });

  it('uses a format without tools when there are none', () => {
    const system = buildPrompt({ protocol: 'react' }).messages[0].content;
    expect(system).not.toContain('Action:');
    expect(system).toContain('Final Answer:');
  });

  it('puts instructions first, then tools, format, examples and context blocks', () => {
    const system = buildPrompt({
      protocol: 'json',
      instructions: 'You are a math tutor.',
      tools: [calculator],
      examples: [reactPrompt.en.example, 'Second example'],
      context: ['The user is 12 years old.'],
    }).messages[0].content as string;
    const order = [
      'You are a math tutor.',
      '- calculator',
      'Reply with exactly one JSON object',
      'Examples:',
      '12% of 250',
      'Second example',
      'Context:\nThe user is 12 years old.',
    ];
    const positions = order.map((s) => system.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('places history before the input and the finished steps after it', () => {
    const steps: Step[] = [
      {
        index: 0,
        kind: 'tool_calls',
        raw: 'Action: calculator\nAction Input: {"expression": "2+2"}',
        toolCalls: [
          { id: 'c', name: 'calculator', input: { expression: '2+2' }, output: '4', ok: true, durationMs: 1 },
        ],
      },
    ];
    const { messages } = buildPrompt({
      protocol: reactProtocol,
      history: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
      input: 'What is 2+2?',
      steps,
    });
    expect(messages.map((m) => m.content)).toEqual([
      expect.any(String),
      'hi',
      'hello',
      'What is 2+2?',
      'Action: calculator\nAction Input: {"expression": "2+2"}',
      'Observation: 4',
    ]);
  });

  it('prints the exact messages and tools', () => {
    const prompt = buildPrompt({ protocol: 'native', tools: [calculator], input: 'Hi' });
    const printed = renderPrompt({
      ...prompt,
      messages: [
        ...prompt.messages,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"1"}' }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '1' },
      ],
    });
    expect(printed).toContain('--- system ---');
    expect(printed).toContain('--- user ---\nHi');
    expect(printed).toContain('[tool call c1] calculator({"expression":"1"})');
    expect(printed).toContain('--- tool calculator (c1) ---\n1');
    expect(printed).toContain('--- tools ---\ncalculator: Evaluates a math expression.');
  });
});

describe('getProtocol', () => {
  it('returns each protocol by name', () => {
    for (const name of ['native', 'json', 'react'] as const) expect(getProtocol(name).name).toBe(name);
  });

  it('throws a ConfigError naming the choices for an unknown name', () => {
    expect(() => getProtocol('xml' as 'json')).toThrow(/Use one of: native, json, react/);
    expect(() => getProtocol('toString' as 'json')).toThrow(/Unknown protocol/);
  });
});
