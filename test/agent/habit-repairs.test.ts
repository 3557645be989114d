import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, scriptedModel } from '../../src/index.js';
import { addTool } from './helpers.js';

const fenced = (body: string) => `\`\`\`\n${body}\n\`\`\``;

describe('a model that keeps a formatting habit', () => {
  it('reaches its answer with no extra model call, each reply counted as a repair with its habit', async () => {
    const model = scriptedModel([
      fenced('Thought: add first.\nAction: add\nAction Input: {"a": 2, "b": 3}'),
      fenced('Thought: now add 4.\nAction: add\nAction Input: {"a": 5, "b": 4}'),
      fenced('Thought: done.\nFinal Answer: 9'),
    ]);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [addTool], protocol: 'react' }).run('2 + 3 + 4?', {
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({ status: 'done', output: '9' });
    expect(result.usage.llmCalls).toBe(3);
    expect(result.stats).toMatchObject({ invalidReplies: 0, repairedReplies: 3, habits: { fenced_reply: 3 } });
    expect(result.steps.map((s) => s.habits)).toEqual([['fenced_reply'], ['fenced_reply'], ['fenced_reply']]);
    const repairs = events.filter((e) => e.type === 'warning' && e.code === 'reply_repaired');
    expect(repairs).toHaveLength(3);
    expect(repairs[0]).toMatchObject({ step: 0, habits: ['fenced_reply'] });
  });

  it('counts a reply with several habits once, and each habit once', async () => {
    const model = scriptedModel(['```\nAction: add()\nAction Input: {"a": 1, "b": 1}<|im_end|>', 'Answer: 2']);
    const result = await new Agent({ model, tools: [addTool], protocol: 'react' }).run('1 + 1?');
    expect(result.output).toBe('2');
    expect(result.stats.repairedReplies).toBe(2);
    expect(result.stats.habits).toEqual({
      special_tokens: 1,
      fenced_reply: 1,
      decorated_tool_name: 1,
      foreign_keywords: 1,
    });
  });

  it('leaves clean replies uncounted', async () => {
    const model = scriptedModel(['Action: add\nAction Input: {"a": 1, "b": 1}', 'Final Answer: 2']);
    const result = await new Agent({ model, tools: [addTool], protocol: 'react' }).run('1 + 1?');
    expect(result.stats).toMatchObject({ repairedReplies: 0, habits: {} });
    expect(result.steps.every((s) => s.habits === undefined)).toBe(true);
  });
});

describe('a correction after an unreadable reply', () => {
  it("quotes the model's own line and shows the exact line to write", async () => {
    const model = scriptedModel([
      'Thought: no tool needed.\nAction: None (direct response required)',
      'Final Answer: hi',
    ]);
    const result = await new Agent({ model, protocol: 'react', tools: [addTool] }).run('hello');
    expect(result.output).toBe('hi');
    const correction = model.calls[1].messages.at(-1)?.content;
    expect(correction).toContain('You wrote:\nAction: None (direct response required)');
    expect(correction).toContain('Write this instead:\nFinal Answer: <your answer>');
  });

  it("is written in the reply's language, not the prompt's", async () => {
    const model = scriptedModel(['思考：不需要工具。\n行动：add', '最终答案：好的']);
    const result = await new Agent({ model, protocol: 'react', tools: [addTool] }).run('hello');
    expect(result.output).toBe('好的');
    const correction = String(model.calls[1].messages.at(-1)?.content);
    expect(correction).toContain('无法解析你上一次的回复');
    expect(correction).toContain('你写的是：\n行动：add');
    expect(correction).toContain('请改成：\n行动：add\n行动输入：{}');
  });
});
