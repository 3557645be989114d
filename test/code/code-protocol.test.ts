import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { codeAct } from '../../src/code/index.js';
import { scriptedModel } from '../../src/llm/index.js';
import { codeProtocol, parseCodeAction } from '../../src/protocols/index.js';
import { priceTools } from './code-helpers.js';

describe('protocol: codeAct() on a scripted model', () => {
  it('English: one fenced block per step, the observation is the log, final_answer ends the run', async () => {
    const { price, seen } = priceTools();
    const model = scriptedModel([
      'Thought: I look up both prices.\n```js\nconst a = await tools.price({ item: "apple" });\nconst b = await tools.price({ item: "fig" });\nconsole.log(a.usd, b.usd);\n```',
      'Thought: Now I add them.\n```javascript\nfinal_answer(5 + 3)\n```',
    ]);
    const agent = new Agent({ model, protocol: codeAct(), tools: [price] });
    const result = await agent.run('What do an apple and a fig cost together?');
    expect(result.status).toBe('done');
    expect(result.output).toBe('8');
    expect(seen).toEqual(['apple', 'fig']);
    expect(model.calls).toHaveLength(2);
    const system = model.calls[0].messages[0].content as string;
    expect(system).toContain('price(input: { item: string }): Promise<{ item: string; usd: number }>;');
    expect(system).not.toContain('run_code(');
    const observation = model.calls[1].messages.at(-1)?.content;
    expect(observation).toBe('Observation: Log:\n5 3\nReturned: undefined (the program returned nothing)');
  });

  it('Chinese: the prompt is in Chinese, and ```ts blocks have their types stripped', async () => {
    const { price } = priceTools();
    const model = scriptedModel([
      '思考：先查价格。\n```ts\nconst p: { usd: number } = await tools.price({ item: "梨" });\nconsole.log(p.usd);\n```',
      '思考：得到答案。\n```\nfinal_answer(`梨的价格是 1 美元`)\n```',
    ]);
    const agent = new Agent({ model, protocol: codeAct(), language: 'zh', tools: [price] });
    const result = await agent.run('梨多少钱？');
    expect(result.status).toBe('done');
    expect(result.output).toBe('梨的价格是 1 美元');
    const system = model.calls[0].messages[0].content as string;
    expect(system).toContain('每一步先写一句简短的思考');
    expect(model.calls[1].messages.at(-1)?.content).toBe(
      '观察：Log:\n1\nReturned: undefined (the program returned nothing)',
    );
  });

  it('a reply without code gets a correction, and a failing program is an observation, not a disabled tool', async () => {
    const { price } = priceTools();
    const model = scriptedModel([
      'I think the answer is 4.',
      '```js\nthrow new Error("oops")\n```',
      '```js\nthrow new Error("oops again")\n```',
      '```js\nthrow new Error("and again")\n```',
      '```js\nfinal_answer({ total: 4 })\n```',
    ]);
    const agent = new Agent({ model, protocol: codeAct(), tools: [price], maxSteps: 6 });
    const result = await agent.run('go');
    expect(result.status).toBe('done');
    expect(result.output).toBe('{"total":4}');
    expect(result.steps[0].kind).toBe('invalid');
    expect(result.steps[1].observation).toBe('Error: Error: oops (line 1)');
  });
});

describe('parseCodeAction reads the fence variants models write', () => {
  const code = (text: string) => {
    const step = parseCodeAction(text);
    return step.type === 'action' ? (step.input as { code: string }).code : step.type;
  };

  it('no tag, js, javascript, ts, typescript, and a fence cut off by a stop sequence', () => {
    expect(code('```\nfinal_answer(1)\n```')).toBe('final_answer(1)');
    expect(code('```js\nfinal_answer(1)\n```')).toBe('final_answer(1)');
    expect(code('```javascript\nfinal_answer(1)\n```')).toBe('final_answer(1)');
    expect(code('```ts\nconst x: number = 1\n```')).toBe('const x: number = 1');
    expect(code('```typescript\nfinal_answer(1)\n```')).toBe('final_answer(1)');
    expect(code('Thought: go\n```js\nconst a = 1;\nfinal_answer(a)')).toBe('const a = 1;\nfinal_answer(a)');
  });

  it('several blocks run as one program; python blocks are refused with a reason; <code> tags are read', () => {
    expect(code('```js\nconst a = 1;\n```\nthen\n```js\nfinal_answer(a)\n```')).toBe('const a = 1;\nfinal_answer(a)');
    const python = parseCodeAction('```python\nprint(1)\n```');
    expect(python.type === 'invalid' && python.reason).toMatch(/python; only JavaScript runs here/);
    expect(code('Thought: x\n<code>final_answer(2)</code>')).toBe('final_answer(2)');
    expect(code('final_answer("bare")')).toBe('final_answer("bare")');
  });

  it('keeps the thought before the block, in either language', () => {
    const en = parseCodeAction('Thought: add them\n```js\nfinal_answer(3)\n```');
    expect(en.type === 'action' && en.thought).toBe('add them');
    const zh = parseCodeAction('思考：相加\n```js\nfinal_answer(3)\n```');
    expect(zh.type === 'action' && zh.thought).toBe('相加');
  });

  it("protocol: 'code' (before codeAct) loads codeAct() on the first run; a bare code protocol is a ConfigError", async () => {
    const { price } = priceTools();
    const model = scriptedModel(['```js\nfinal_answer((await tools.price({ item: "fig" })).usd)\n```']);
    const agent = new Agent({ model, protocol: 'code', tools: [price] });
    expect(() => agent.protocol).toThrow(/first run.*codeAct\(\)/);
    const result = await agent.run('go');
    expect(result.status).toBe('done');
    expect(agent.tools.list().map((t) => t.name)).toEqual(['price', 'run_code']);
    expect(agent.protocol.name).toBe('code');
    expect(() => new Agent({ model, protocol: codeProtocol, tools: [price] })).toThrow(/protocol: codeAct\(\)/);
  });

  it('codeAct() takes the budgets of codeMode and registers run_code beside the tools', async () => {
    const { price } = priceTools();
    const model = scriptedModel(['```js\nwhile (true) {}\n```', '```js\nfinal_answer(2)\n```']);
    const agent = new Agent({ model, protocol: codeAct({ timeoutMs: 200 }), tools: [price] });
    expect(agent.tools.list().map((t) => t.name)).toEqual(['price', 'run_code']);
    const result = await agent.run('go');
    expect(result.steps[0].observation).toMatch(/time/i);
    expect(result.output).toBe('2');
  });
});
