import { z } from 'zod';
import { defineTool } from '../tool.js';

const WEATHER: Record<string, string> = {
  beijing: 'Sunny, 22°C, light wind',
  shanghai: 'Cloudy, 19°C, humidity 70%',
  shenzhen: 'Showers, 27°C',
  paris: 'Light rain, 14°C',
  london: 'Overcast, 12°C',
  tokyo: 'Clear, 18°C',
  'new york': 'Windy, 16°C',
  berlin: 'Partly cloudy, 15°C',
  sydney: 'Sunny, 25°C',
  北京: '晴，22°C，微风',
  上海: '多云，19°C，湿度70%',
  深圳: '阵雨，27°C',
  巴黎: '小雨，14°C',
  伦敦: '阴，12°C',
  东京: '晴，18°C',
};

const FACTS: { keys: string[]; text: string }[] = [
  {
    keys: ['react', 'agent', '智能体'],
    text: 'ReAct interleaves reasoning (Thought) with acting (Action) and observing (Observation) until the model can answer.',
  },
  { keys: ['thinkflow'], text: 'thinkflow is a TypeScript framework for building LLM agents from first principles.' },
  { keys: ['typescript'], text: 'TypeScript is a typed superset of JavaScript that compiles to plain JavaScript.' },
  {
    keys: ['paris', 'france', '巴黎'],
    text: 'Paris is the capital of France, with about 2.1 million inhabitants in the city proper.',
  },
  {
    keys: ['tokyo', 'japan', '东京'],
    text: 'Tokyo is the capital of Japan and the most populous metropolitan area in the world.',
  },
  {
    keys: ['llm', 'language model', '大模型'],
    text: 'A large language model predicts text; agents give it tools so it can act.',
  },
];

/** Mock weather over built-in data (demo only). */
export const demoWeatherTool = defineTool({
  name: 'weather',
  description: 'Current weather for a city (demo data, not live).',
  input: z.object({ city: z.string().describe('City name, e.g. Paris or 北京') }),
  run: ({ city }) => {
    const report = WEATHER[city.trim().toLowerCase()];
    return report
      ? `Weather in ${city}: ${report} (demo data)`
      : `No demo weather data for ${city}. Known: ${Object.keys(WEATHER).join(', ')}`;
  },
});

/** Mock search over a few built-in facts (demo only). */
export const demoSearchTool = defineTool({
  name: 'search',
  description: 'Searches a small built-in knowledge base (demo data, not the web).',
  input: z.object({ query: z.string().describe('What to look for') }),
  run: ({ query }) => {
    const q = query.toLowerCase();
    const hits = FACTS.filter((f) => f.keys.some((k) => q.includes(k)));
    return hits.length ? hits.map((h) => h.text).join(' ') : `No demo results for "${query}".`;
  },
});
