import { contentText, type Message, type ModelRequest, type ModelResponse } from '../core/index.js';
import { type DemoStep, type Lang, planFor } from './demo-plan.js';
import type { Model } from './model.js';
import { scriptedModel } from './scripted-model.js';

const TAG = { en: '[demo simulation, no real LLM]', zh: '【演示模拟，未使用真实模型】' };
const SKILLS = {
  en: 'The demo model only does arithmetic, weather for a few cities, a few built-in facts, holidays and films, and short trip plans; for real answers use a real model (see `thinkflow run --help`).',
  zh: '演示模型只会算术、查询几个城市的天气、几条内置知识、节日与电影和简短的行程规划；要真正的回答请使用真实模型（见 `thinkflow run --help`）。',
};

/**
 * The rule-based demo model from the tutorials: it reads the question, picks the demo tools
 * (calculator, search, weather, holidays, films) by intent rules (chains of tools, several cities,
 * asking back when a detail is missing, a greeting) and replies in the request's protocol (ReAct
 * text, JSON actions or native tool calls), so a newcomer sees the whole loop work with no LLM. It reads whole expressions (parentheses, powers, percentages, `×`/`÷`,
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

/** How the demo writes its replies: in the format of the request's protocol. */
type Format = NonNullable<ModelRequest['protocol']>;

function demoReply(request: ModelRequest): string | ModelResponse {
  const format: Format = request.protocol ?? 'react';
  const { question, observations } = readConversation(request.messages);
  // Chinese characters, or the full-width forms a Chinese input method types, mean a Chinese answer.
  const lang: Lang = /[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]/.test(question) ? 'zh' : 'en';
  const plan = planFor(question, lang);
  if ('answer' in plan) return final(plan.answer, lang, format);
  const seen = observations.map((o) => o.trim().replace(/\s+/g, ' '));
  // A step that did not give a result ends the chain: the answer says which and why.
  for (const [i, observation] of seen.entries()) {
    const step = plan.steps[i];
    const failure = step && failed(step, observation, seen.slice(0, i), lang);
    if (failure) return final(failure, lang, format);
  }
  const next = plan.steps[seen.length];
  if (next) return action(next, { input: next.input(seen), lang, format, index: seen.length });
  return final(plan.finish(seen), lang, format);
}

function final(text: string, lang: Lang, format: Format): string {
  const answer = lang === 'zh' ? `${TAG.zh}${text}` : `${TAG.en} ${text}`;
  const thought = lang === 'zh' ? '我已经得到需要的信息。' : 'I have what I need.';
  if (format === 'native') return answer;
  if (format === 'json') return JSON.stringify({ thought, action: 'final_answer', action_input: answer });
  return lang === 'zh' ? `思考：${thought}\n最终答案：${answer}` : `Thought: ${thought}\nFinal Answer: ${answer}`;
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

/** Observations the executor writes when a tool did not give a result. */
const TOOL_FAILURE = /^(Tool \S+ (failed|timed out|was aborted|is disabled)|Unknown tool|Invalid (input|arguments))/i;

/** What to say when a step's observation is no result, or undefined when it is one. */
function failed(step: DemoStep, observation: string, before: string[], lang: Lang): string | undefined {
  const failure = TOOL_FAILURE.test(observation);
  const input = step.input(before);
  switch (step.tool) {
    case 'calculator':
      if (!failure) return undefined;
      return lang === 'zh'
        ? `我没能算出 ${input.expression}：计算器报错（${observation}）`
        : `I could not work out ${input.expression}: the calculator reported an error (${observation})`;
    case 'weather':
      if (!failure && !observation.startsWith('No demo weather data')) return undefined;
      return lang === 'zh'
        ? `我没有${input.city}的天气数据（${observation}）`
        : `I have no weather for ${input.city} (${observation})`;
    case 'search':
      if (!failure && !observation.startsWith('No demo results')) return undefined;
      return lang === 'zh' ? `我不知道。${SKILLS.zh}` : `I don't know. ${SKILLS.en}`;
    default:
      if (!failure) return undefined;
      return lang === 'zh'
        ? `工具 ${step.tool} 没有给出结果（${observation}）`
        : `The ${step.tool} tool gave no result (${observation})`;
  }
}

function action(
  step: DemoStep,
  call: { input: Record<string, unknown>; lang: Lang; format: Format; index: number },
): string | ModelResponse {
  const { input, lang, format } = call;
  if (format === 'native') {
    return { text: '', toolCalls: [{ id: `demo_${call.index}`, name: step.tool, arguments: JSON.stringify(input) }] };
  }
  if (format === 'json') return JSON.stringify({ thought: step.why, action: step.tool, action_input: input });
  return lang === 'zh'
    ? `思考：${step.why}\n行动：${step.tool}\n行动输入：${JSON.stringify(input)}`
    : `Thought: ${step.why}\nAction: ${step.tool}\nAction Input: ${JSON.stringify(input)}`;
}
