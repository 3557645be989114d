import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRouter } from '../../../src/entries/tools.js';
import { Agent, type AgentEvent, defineTool, scriptedModel, type ToolSpec } from '../../../src/index.js';

const spec = (name: string, description: string): ToolSpec => ({ name, description, parameters: { type: 'object' } });

// Thirty tools a Chinese project might register, most with Chinese descriptions, some English ones.
const TOOLS: ToolSpec[] = [
  spec('查询天气', '查询指定城市的实时天气'),
  spec('get_exchange_rate', 'Convert money between currencies at the current exchange rate.'),
  spec('search_papers', '在arXiv上搜索学术论文'),
  spec('send_mail', 'Send an email to someone.'),
  spec('read_file', '读取本地文件的内容'),
  ...Array.from({ length: 25 }, (_, i) => spec(`filler_${i}`, `处理第${i}类业务工单，编号${i}`)),
];

describe('createToolRouter in Chinese and across languages', () => {
  it('finds a tool described in Chinese from a Chinese question (the run is segmented, not one token)', async () => {
    const router = createToolRouter({ topK: 3 });
    expect((await router.route('北京今天天气怎么样', TOOLS))[0].name).toBe('查询天气');
    expect((await router.route('帮我找几篇关于扩散模型的论文', TOOLS))[0].name).toBe('search_papers');
  });

  it('crosses languages both ways through common tool concepts', async () => {
    const router = createToolRouter({ topK: 3 });
    expect((await router.route('100美元能换多少人民币', TOOLS)).map((t) => t.name)).toContain('get_exchange_rate');
    expect((await router.route('给老板发一封邮件', TOOLS)).map((t) => t.name)).toContain('send_mail');
    expect((await router.route('Will it rain in Paris tomorrow?', TOOLS)).map((t) => t.name)).toContain('查询天气');
  });

  it('never pads with unrelated tools: fewer than topK when fewer match, plus alwaysInclude', async () => {
    const router = createToolRouter({ topK: 4 });
    expect(await router.route('zzqx', TOOLS)).toEqual([]);
    const rain = (await router.route('Will it rain in Paris tomorrow?', TOOLS)).map((t) => t.name);
    expect(rain).toEqual(['查询天气']);
    const always = createToolRouter({ topK: 4, alwaysInclude: ['send_mail'] });
    expect((await always.route('Will it rain in Paris tomorrow?', TOOLS)).map((t) => t.name)).toEqual([
      '查询天气',
      'send_mail',
    ]);
  });

  it('an agent with many tools offers the model the right one for a Chinese question', async () => {
    const tools = TOOLS.map((t) =>
      defineTool({ name: t.name, description: t.description, input: z.object({ q: z.string() }), run: () => 'ok' }),
    );
    const model = scriptedModel(['晴']);
    const events: AgentEvent[] = [];
    await new Agent({ model, tools, toolRouting: createToolRouter() }).run('上海明天会下雨吗？', {
      onEvent: (e) => events.push(e),
    });
    const select = events.find((e) => e.type === 'tools_select');
    expect(select?.type === 'tools_select' && select.tools).toContain('查询天气');
  });
});
