// Seed 004's agent: which holiday is a date, then a film for that holiday, under the JSON protocol
// (the model answers {"action": ..., "action_input": ...} each turn). The demo model plays the LLM;
// give `model` a real provider (openaiCompatible, anthropic, ollama...) to run it for real.
import { Agent, defineTool } from 'thinkflow';
import { demoModel } from 'thinkflow/testing';
import { z } from 'zod';

const HOLIDAYS: Record<string, string> = { '05-01': '劳动节', '10-01': '国庆节', '12-25': '圣诞节' };
const MOVIES: Record<string, string> = { 劳动节: '《摩登时代》', 国庆节: '《我和我的祖国》', 圣诞节: '《小鬼当家》' };

const getHoliday = defineTool({
  name: 'get_holiday',
  description: '查询指定日期对应的节日名称，参数为日期，格式 YYYY-MM-DD',
  input: z.object({ date_str: z.string().describe('日期，例如 2027-10-01') }),
  run: ({ date_str }) => HOLIDAYS[date_str.slice(5, 10)] ?? '普通工作日',
});

const getMovieRecommendation = defineTool({
  name: 'get_movie_recommendation',
  description: '根据节日名称获取适合观看的电影推荐',
  input: z.object({ holiday_name: z.string().describe('节日名称，例如 国庆节') }),
  run: ({ holiday_name }) => MOVIES[holiday_name] ?? '《海上钢琴师》',
});

const agent = new Agent({
  model: demoModel(),
  tools: [getHoliday, getMovieRecommendation],
  protocol: 'json',
  language: 'zh',
  maxSteps: 5,
  temperature: 0.2,
});

const result = await agent.run('今天是2027年10月1日，有什么适合看的电影吗？', {
  onEvent: (e) => {
    if (e.type === 'tool_start') console.log(`→ ${e.tool}(${JSON.stringify(e.input)})`);
    if (e.type === 'tool_end') console.log(`← ${e.output}`);
  },
});
console.log(result.status, result.output);
