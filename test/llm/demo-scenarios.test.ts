import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { demoModel } from '../../src/llm/index.js';
import { calculatorTool, demoTools } from '../../src/tools/index.js';

const ZH = '【演示模拟，未使用真实模型】';
const EN = '[demo simulation, no real LLM] ';

/** The seeds' scenarios, each asked more than one way: the demo follows rules, not sentences. */
describe('demoModel runs the seeds’ scenarios', () => {
  const agent = new Agent({ model: demoModel(), tools: [calculatorTool, ...demoTools], protocol: 'react' });
  const ask = async (question: string) => {
    const result = await agent.run(question);
    expect(result.status).toBe('done');
    return { output: result.output, tools: result.steps.flatMap((s) => s.toolCalls.map((c) => c.name)) };
  };

  it.each([
    ['LangChain是什么', 'LangChain 是一个用于开发由大语言模型驱动的应用程序的框架'],
    ['什么是LangChain？', 'LangChain 是一个'],
    ['What is LangChain?', 'LangChain is a framework'],
    ['Python是谁发明的', '吉多·范罗苏姆'],
    ['Who invented Python?', 'Guido van Rossum'],
  ])('knowledge: %s', async (question, answer) => {
    const { output, tools } = await ask(question);
    expect(output).toContain(answer);
    expect(tools).toEqual(['search']);
  });

  it.each([
    ['地球的周长是多少米？再除以1000', '40075'],
    ['查一下地球周长，然后除以1000换算成公里', '40075'],
    ["Look up the Earth's circumference, then divide it by 1000", '40075'],
  ])('search → calculator: %s', async (question, answer) => {
    const { output, tools } = await ask(question);
    expect(tools).toEqual(['search', 'calculator']);
    expect(output).toMatch(new RegExp(`= ${answer}$`));
  });

  it.each([
    ['北京和上海的气温差是多少？', '气温差3°C'],
    ['上海比北京冷多少度？看看两地天气', '气温差-3°C'],
    ['What is the temperature difference between Paris and London?', 'difference 2°C'],
  ])('two cities, then a difference: %s', async (question, answer) => {
    const { output, tools } = await ask(question);
    expect(tools).toEqual(['weather', 'weather', 'calculator']);
    expect(output).toContain(answer);
  });

  it.each(['查询今天的天气', '帮我查一下明天的天气', "What's the weather today?"])(
    'asks back which city: %s',
    async (question) => {
      const { output, tools } = await ask(question);
      expect(tools).toEqual([]);
      expect(output).toMatch(/请问是哪个城市|Which city/);
    },
  );

  it.each([
    ['你好，请介绍一下你自己', `${ZH}你好！我是 thinkflow 的演示模型`],
    ['你是谁？', `${ZH}你好！我是 thinkflow 的演示模型`],
    ['Hi, who are you?', `${EN}Hello! I am thinkflow's demo model`],
  ])('a greeting: %s', async (question, start) => {
    const { output, tools } = await ask(question);
    expect(tools).toEqual([]);
    expect(output.startsWith(start)).toBe(true);
  });

  it.each([
    [
      '今天是2027年10月1日，有什么适合看的电影吗？',
      ['get_holiday', 'get_movie_recommendation'],
      '2027-10-01是国庆节，推荐你看《我和我的祖国》',
    ],
    ['2027-06-09适合看什么片子', ['get_holiday', 'get_movie_recommendation'], '端午节'],
    ['What film should I watch on December 25, 2027?', ['get_holiday', 'get_movie_recommendation'], 'Home Alone'],
    ['春节看什么电影好', ['get_movie_recommendation'], '《你好，李焕英》'],
  ])('holiday → film: %s', async (question, chain, answer) => {
    const { output, tools } = await ask(question);
    expect(tools).toEqual(chain);
    expect(output).toContain(answer);
  });

  it.each([
    ['帮我规划一次三天的北京旅行', '第3天', '故宫'],
    ['安排一个上海两日游的行程', '第2天', '外滩'],
    ['Plan a 3-day trip to Tokyo', 'Day 3', 'Senso-ji'],
  ])('a trip plan: %s', async (question, lastDay, sight) => {
    const { output, tools } = await ask(question);
    expect(tools).toEqual(['weather', 'search']);
    expect(output).toContain(lastDay);
    expect(output).toContain(sight);
  });
});
