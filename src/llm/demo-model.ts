import { contentText, type Message, type ModelRequest } from '../core/index.js';
import { findExpressions } from './demo-expression.js';
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

/** What the demo does with a question: call tools one after another, or answer at once. */
type Plan = { tasks: Task[] } | { answer: string };

const TAG = { en: '[demo simulation, no real LLM]', zh: '【演示模拟，未使用真实模型】' };
const SKILLS = {
  en: 'The demo model only does arithmetic, weather for a few cities and a few built-in facts; for real answers use a real model (see `thinkflow run --help`).',
  zh: '演示模型只会算术、查询几个城市的天气和几条内置知识；要真正的回答请使用真实模型（见 `thinkflow run --help`）。',
};

/**
 * The rule-based demo model from the tutorials: it reads the question, picks the demo tools
 * (calculator, search, weather) by simple rules and replies in ReAct, so a newcomer sees the whole
 * loop work with no LLM. It reads whole expressions (parentheses, powers, percentages, `×`/`÷`,
 * spoken operators, Chinese numerals), says plainly when a tool failed or it does not know, and
 * every final answer says it is a simulation.
 *
 * @example
 * const agent = new Agent({ model: demoModel(), tools: [calculatorTool, demoSearchTool, demoWeatherTool], protocol: 'react' });
 * await agent.run('What is (15 + 7) * 3?'); // '[demo simulation, no real LLM] (15 + 7) * 3 = 66'
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
  // Chinese characters, or the full-width forms a Chinese input method types, mean a Chinese answer.
  const lang = /[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/.test(question) ? 'zh' : 'en';
  const plan = planTasks(question, lang);
  if ('answer' in plan) return final(plan.answer, lang);
  const next = plan.tasks[observations.length];
  if (next) return action(next, lang);
  const parts = plan.tasks.map((task, i) => describe(task, observations[i].trim().replace(/\s+/g, ' '), lang));
  return final(parts.join(lang === 'zh' ? '；' : '; '), lang);
}

function final(text: string, lang: 'en' | 'zh'): string {
  return lang === 'zh'
    ? `思考：我已经得到需要的信息。\n最终答案：${TAG.zh}${text}`
    : `Thought: I have what I need.\nFinal Answer: ${TAG.en} ${text}`;
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

function planTasks(question: string, lang: 'en' | 'zh'): Plan {
  if (/^\s*(hi|hello|hey|你好|您好|嗨)[\s!！.。,，]*$/i.test(question)) {
    return {
      answer:
        lang === 'zh'
          ? `你好！我是演示模型。试试问我：(15+7)*3 等于多少？或者：北京天气怎么样？`
          : 'Hello! I am the demo model. Try: What is (15 + 7) * 3? or: What is the weather in Paris?',
    };
  }
  const tasks: Task[] = [];
  if (/weather|temperature|forecast|天气|气温/i.test(question)) {
    const city = findCity(question);
    if (!city) {
      return {
        answer:
          lang === 'zh'
            ? `请告诉我是哪个城市。演示数据有：${CITIES.filter((c) => /[\u4e00-\u9fff]/.test(c)).join('、')}。`
            : `Which city? The demo has weather for ${CITIES.filter((c) => /^[A-Z]/.test(c)).join(', ')}.`,
      };
    }
    tasks.push({ tool: 'weather', city });
  }
  for (const expression of findExpressions(question)) tasks.push({ tool: 'calculator', expression });
  if (tasks.length === 0) tasks.push({ tool: 'search', query: searchQuery(question) });
  return { tasks };
}

/**
 * Most characters of a search query. A model writes a short query, whatever the question's length;
 * echoing the whole question made a 1 MiB question a 1 MiB reply, streamed as 130,000 deltas.
 */
const MAX_QUERY = 200;

/** The question as a search query: without its question mark, cut at a word before `MAX_QUERY`. */
function searchQuery(question: string): string {
  const query = question.replace(/[?？]\s*$/, '').trim();
  if (query.length <= MAX_QUERY) return query;
  const cut = query.slice(0, MAX_QUERY);
  const space = cut.search(/\s\S*$/);
  return (space > MAX_QUERY / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/** A known city, else the name the question gives (`in Madrid`, `杭州天气`), else none. */
function findCity(question: string): string | undefined {
  const known = CITIES.find((c) => question.toLowerCase().includes(c.toLowerCase()));
  if (known) return known;
  const english = question.match(/\b(?:in|for|at)\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)/);
  if (english) return english[1];
  const chinese = question.match(/([\u4e00-\u9fff]{2,6}?)(?:的)?(?:天气|气温)/);
  return chinese?.[1].replace(/^(今天|明天|现在)|(今天|明天|现在)$/g, '') || undefined;
}

/** Observations the executor writes when a tool did not give a result. */
const TOOL_FAILURE = /^(Tool \S+ (failed|timed out|was aborted|is disabled)|Unknown tool|Invalid (input|arguments))/i;

function describe(task: Task, observation: string, lang: 'en' | 'zh'): string {
  const failed = TOOL_FAILURE.test(observation);
  switch (task.tool) {
    case 'calculator':
      if (failed)
        return lang === 'zh'
          ? `我没能算出 ${task.expression}：计算器报错（${observation}）`
          : `I could not work out ${task.expression}: the calculator reported an error (${observation})`;
      return `${task.expression} = ${observation}`;
    case 'weather':
      if (failed || observation.startsWith('No demo weather data'))
        return lang === 'zh'
          ? `我没有${task.city}的天气数据（${observation}）`
          : `I have no weather for ${task.city} (${observation})`;
      return observation;
    case 'search':
      if (failed || observation.startsWith('No demo results'))
        return lang === 'zh' ? `我不知道。${SKILLS.zh}` : `I don't know. ${SKILLS.en}`;
      return observation;
  }
}

function action(task: Task, lang: 'en' | 'zh'): string {
  const zh = lang === 'zh';
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
