import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.js';
import { demoModel } from '../../src/llm/index.js';
import { calculatorTool, defineTool, demoSearchTool, demoWeatherTool } from '../../src/tools/index.js';

const EN = '[demo simulation, no real LLM] ';
const ZH = '【演示模拟，未使用真实模型】';
const DONT_KNOW_EN = `${EN}I don't know. The demo model only does arithmetic, weather for a few cities, a few built-in facts, holidays and films, and short trip plans; for real answers use a real model (see \`thinkflow run --help\`).`;
const DONT_KNOW_ZH = `${ZH}我不知道。演示模型只会算术、查询几个城市的天气、几条内置知识、节日与电影和简短的行程规划；要真正的回答请使用真实模型（见 \`thinkflow run --help\`）。`;

/** What a newcomer types first, and the exact answer the demo must give. */
const TABLE: [question: string, answer: string][] = [
  ['What is (15 + 7) * 3?', `${EN}(15 + 7) * 3 = 66`],
  ['计算一下 (15+7)*3 等于多少', `${ZH}(15+7)*3 = 66`],
  ['What is 2 + 2?', `${EN}2 + 2 = 4`],
  ['What is 23 * 7 + 4?', `${EN}23 * 7 + 4 = 165`],
  ['What is 2^10?', `${EN}2^10 = 1024`],
  ['What is 3.5 * 4?', `${EN}3.5 * 4 = 14`],
  ['What is 15% of 80?', `${EN}15% * 80 = 12`],
  ['12 × 4 ÷ 3 = ?', `${EN}12 * 4 / 3 = 16`],
  ['What is 7 times 8?', `${EN}7 * 8 = 56`],
  ['what is 10 divided by 4', `${EN}10 / 4 = 2.5`],
  ['What is the square root of 144?', `${EN}sqrt(144) = 12`],
  ['What is ((2 + 3) * 4)^2?', `${EN}((2 + 3) * 4)^2 = 400`],
  ['What is 1,000 + 2,500?', `${EN}1000 + 2500 = 3500`],
  ['What is -5 * 3?', `${EN}-5 * 3 = -15`],
  ['What is 0.1 + 0.2?', `${EN}0.1 + 0.2 = 0.3`],
  ['What is 2 to the power of 8?', `${EN}2 ^ 8 = 256`],
  ['What is 10 minus 3 plus 2?', `${EN}10 - 3 + 2 = 9`],
  ['What is 2+3 and what is 4*5?', `${EN}2+3 = 5; 4*5 = 20`],
  ['What is 1 / 0?', `${EN}1 / 0 = Infinity`],
  ['三加五乘以二等于多少？', `${ZH}3 + 5 * 2 = 13`],
  ['一百二十三乘以四是多少', `${ZH}123 * 4 = 492`],
  ['2的10次方是多少', `${ZH}2^10 = 1024`],
  ['百分之二十乘以五十', `${ZH}20% * 50 = 10`],
  ['（１５＋７）×３', `${ZH}(15+7)*3 = 66`],
  ['100除以8等于几', `${ZH}100 / 8 = 12.5`],
  ['三点五加一点五', `${ZH}3.5 + 1.5 = 5`],
  ['What is the weather in Paris?', `${EN}Weather in Paris: Light rain, 14°C (demo data)`],
  ['北京天气怎么样？', `${ZH}北京天气：晴，22°C，微风（演示数据）`],
  [
    'What is the weather in Madrid?',
    `${EN}I have no weather for Madrid (No demo weather data for Madrid. Known: beijing, shanghai, shenzhen, guangzhou, hangzhou, paris, london, tokyo, new york, berlin, sydney, 北京, 上海, 深圳, 广州, 杭州, 巴黎, 伦敦, 东京)`,
  ],
  [
    "What's the weather like?",
    `${EN}Which city? The demo has weather for Beijing, Shanghai, Shenzhen, Guangzhou, Hangzhou, Paris, London, Tokyo, New York, Berlin, Sydney.`,
  ],
  [
    'What is the weather in Tokyo and what is (3 + 4) * 5?',
    `${EN}Weather in Tokyo: Clear, 18°C (demo data); (3 + 4) * 5 = 35`,
  ],
  [
    'What is ReAct?',
    `${EN}ReAct interleaves reasoning (Thought) with acting (Action) and observing (Observation) until the model can answer.`,
  ],
  [
    'Tell me about thinkflow',
    `${EN}thinkflow is a TypeScript framework for building LLM agents from first principles.`,
  ],
  ['什么是智能体？', `${ZH}ReAct 让模型交替进行思考（Thought）、行动（Action）和观察（Observation），直到可以回答。`],
  ['Who won the 1998 World Cup?', DONT_KNOW_EN],
  ['今天股市怎么样？', DONT_KNOW_ZH],
  ['hello', `${EN}Hello! I am the demo model. Try: What is (15 + 7) * 3? or: What is the weather in Paris?`],
  ['你好', `${ZH}你好！我是演示模型。试试问我：(15+7)*3 等于多少？或者：北京天气怎么样？`],
];

describe('demoModel answers what a newcomer types first', () => {
  const agent = new Agent({
    model: demoModel(),
    tools: [calculatorTool, demoSearchTool, demoWeatherTool],
    protocol: 'react',
  });

  it.each(TABLE)('%s', async (question, answer) => {
    const result = await agent.run(question);
    expect(result.output).toBe(answer);
    expect(result.status).toBe('done');
  });

  it('says so when the calculator fails, and never gives the error as the result', async () => {
    const broken = defineTool({
      name: 'calculator',
      description: 'A calculator that is out of order.',
      input: z.object({ expression: z.string() }),
      run: () => {
        throw new Error('the math engine is not installed');
      },
    });
    const failing = new Agent({ model: demoModel(), tools: [broken], protocol: 'react' });
    expect((await failing.run('What is (15 + 7) * 3?')).output).toBe(
      `${EN}I could not work out (15 + 7) * 3: the calculator reported an error (Tool calculator failed: the math engine is not installed)`,
    );
    expect((await failing.run('计算 2*3')).output).toBe(
      `${ZH}我没能算出 2*3：计算器报错（Tool calculator failed: the math engine is not installed）`,
    );
  });

  it('has at least 30 questions in the table', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
  });
});
