import { contentText, type Message, type ModelRequest } from '../core/index.js';
import type { Model } from './model.js';
import { scriptedModel } from './scripted-model.js';

/** Cities the demo weather tool knows (English and Chinese names). */
const CITIES = [
  'Beijing',
  'Shanghai',
  'Shenzhen',
  'Paris',
  'London',
  'Tokyo',
  'New York',
  'Berlin',
  'Sydney',
  '北京',
  '上海',
  '深圳',
  '巴黎',
  '伦敦',
  '东京',
];

type Task =
  | { tool: 'weather'; city: string }
  | { tool: 'calculator'; expression: string }
  | { tool: 'search'; query: string };

/**
 * The rule-based demo model from the tutorials: it reads the question, picks the demo tools
 * (calculator, search, weather) by simple rules and replies in ReAct, so a newcomer sees the whole
 * loop work with no LLM. Every final answer says it is a simulation.
 *
 * @example
 * const agent = new Agent({ model: demoModel(), tools: demoTools() });
 * await agent.run('What is 23 * 7 + 4?');
 */
export function demoModel(): Model {
  const inner = scriptedModel((request) => demoReply(request), { id: 'demo' });
  return {
    id: inner.id,
    capabilities: { ...inner.capabilities, images: false },
    generate: inner.generate,
    stream: inner.stream,
  };
}

function demoReply(request: ModelRequest): string {
  const { question, observations } = readConversation(request.messages);
  const zh = /[\u4e00-\u9fff]/.test(question);
  const tasks = planTasks(question);
  const next = tasks[observations.length];
  if (next) return action(next, zh);
  const facts = observations.map((o) => o.trim().replace(/\s+/g, ' ')).join(zh ? '；' : '; ');
  return zh
    ? `思考：我已经得到需要的信息。\n最终答案：【演示模拟，未使用真实模型】${facts}`
    : `Thought: I have what I need.\nFinal Answer: [demo simulation, no real LLM] ${facts}`;
}

function readConversation(messages: Message[]): { question: string; observations: string[] } {
  let start = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && !/^\s*(observation|观察)\s*[:：]/i.test(contentText(m.content))) {
      start = i;
      break;
    }
  }
  const question = start >= 0 ? contentText(messages[start].content) : '';
  const observations: string[] = [];
  for (const m of messages.slice(start + 1)) {
    if (m.role === 'tool') observations.push(contentText(m.content));
    else if (m.role === 'user')
      observations.push(contentText(m.content).replace(/^\s*(observation|观察)\s*[:：]\s*/i, ''));
  }
  return { question, observations };
}

function planTasks(question: string): Task[] {
  const tasks: Task[] = [];
  if (/weather|temperature|天气|气温/i.test(question)) {
    const city = CITIES.find((c) => question.toLowerCase().includes(c.toLowerCase())) ?? 'Beijing';
    tasks.push({ tool: 'weather', city });
  }
  const expression = question.match(/[\d.]+(?:\s*[-+*/^%×÷]\s*\(?\s*[\d.]+\s*\)?)+/);
  if (expression)
    tasks.push({ tool: 'calculator', expression: expression[0].replace(/×/g, '*').replace(/÷/g, '/').trim() });
  if (tasks.length === 0) tasks.push({ tool: 'search', query: question.replace(/[?？]$/, '').trim() });
  return tasks;
}

function action(task: Task, zh: boolean): string {
  const [why, input] =
    task.tool === 'weather'
      ? [zh ? `我需要查询${task.city}的天气。` : `I need the weather in ${task.city}.`, { city: task.city }]
      : task.tool === 'calculator'
        ? [
            zh ? '这需要计算，我使用计算器。' : 'This needs arithmetic, so I will use the calculator.',
            { expression: task.expression },
          ]
        : [zh ? '我先搜索相关信息。' : 'I will search for this first.', { query: task.query }];
  return zh
    ? `思考：${why}\n行动：${task.tool}\n行动输入：${JSON.stringify(input)}`
    : `Thought: ${why}\nAction: ${task.tool}\nAction Input: ${JSON.stringify(input)}`;
}
