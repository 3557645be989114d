import { z } from 'zod';
import { hasCjk } from '../../core/index.js';
import { defineTool } from '../tool.js';

/** The demo's weather data: one report per city, in the language of the city's name. */
const WEATHER: Record<string, string> = {
  beijing: 'Sunny, 22°C, light wind',
  shanghai: 'Cloudy, 19°C, humidity 70%',
  shenzhen: 'Showers, 27°C',
  guangzhou: 'Humid, 29°C',
  hangzhou: 'Drizzle, 20°C',
  paris: 'Light rain, 14°C',
  london: 'Overcast, 12°C',
  tokyo: 'Clear, 18°C',
  'new york': 'Windy, 16°C',
  berlin: 'Partly cloudy, 15°C',
  sydney: 'Sunny, 25°C',
  北京: '晴，22°C，微风',
  上海: '多云，19°C，湿度70%',
  深圳: '阵雨，27°C',
  广州: '闷热，29°C',
  杭州: '小雨，20°C',
  巴黎: '小雨，14°C',
  伦敦: '阴，12°C',
  东京: '晴，18°C',
};

/** The demo's knowledge: each fact with the words that find it, in English and Chinese. */
const FACTS: { keys: string[]; en: string; zh: string }[] = [
  {
    keys: ['react', 'agent', '智能体', '代理'],
    en: 'ReAct interleaves reasoning (Thought) with acting (Action) and observing (Observation) until the model can answer.',
    zh: 'ReAct 让模型交替进行思考（Thought）、行动（Action）和观察（Observation），直到可以回答。',
  },
  {
    keys: ['langchain'],
    en: 'LangChain is a framework for developing applications powered by large language models.',
    zh: 'LangChain 是一个用于开发由大语言模型驱动的应用程序的框架。',
  },
  {
    keys: ['python'],
    en: 'Python was created by Guido van Rossum and first released in 1991.',
    zh: 'Python 是由吉多·范罗苏姆（Guido van Rossum）发明的，1991 年首次发布。',
  },
  {
    keys: ['thinkflow'],
    en: 'thinkflow is a TypeScript framework for building LLM agents from first principles.',
    zh: 'thinkflow 是一个从第一性原理构建大模型智能体的 TypeScript 框架。',
  },
  {
    keys: ['typescript'],
    en: 'TypeScript is a typed superset of JavaScript that compiles to plain JavaScript.',
    zh: 'TypeScript 是 JavaScript 的带类型超集，编译成普通的 JavaScript。',
  },
  {
    keys: ['circumference', 'earth', '地球', '周长'],
    en: "The Earth's equatorial circumference is about 40075000 meters (40075 km).",
    zh: '地球赤道周长约为40075000米（约40075公里）。',
  },
  {
    keys: ['圆周率', ' pi', 'π'],
    en: 'Pi, the ratio of a circle’s circumference to its diameter, is about 3.14159.',
    zh: '圆周率是圆的周长与直径的比值，约等于3.14159。',
  },
  {
    keys: ['paris', 'france', '巴黎', '法国'],
    en: 'Paris is the capital of France, with about 2.1 million inhabitants. Sights: the Eiffel Tower, the Louvre, Notre-Dame, Montmartre, the Seine.',
    zh: '巴黎是法国首都，约210万人口。景点：埃菲尔铁塔、卢浮宫、巴黎圣母院、蒙马特高地、塞纳河。',
  },
  {
    keys: ['tokyo', 'japan', '东京', '日本'],
    en: 'Tokyo is the capital of Japan. Sights: Senso-ji, Shibuya, the Meiji Shrine, Tokyo Tower, Ueno Park.',
    zh: '东京是日本首都。景点：浅草寺、涩谷、明治神宫、东京塔、上野公园。',
  },
  {
    keys: ['beijing', '北京'],
    en: 'Beijing is the capital of China. Sights: the Forbidden City, the Great Wall, the Temple of Heaven, the Summer Palace, Hutongs.',
    zh: '北京是中国首都。景点：故宫、长城、天坛、颐和园、胡同。',
  },
  {
    keys: ['shanghai', '上海'],
    en: 'Shanghai is the largest city of China. Sights: the Bund, Yu Garden, Lujiazui, Nanjing Road, Zhujiajiao.',
    zh: '上海是中国最大的城市。景点：外滩、豫园、陆家嘴、南京路、朱家角。',
  },
  {
    keys: ['llm', 'language model', '大模型', '语言模型'],
    en: 'A large language model predicts text; agents give it tools so it can act.',
    zh: '大语言模型预测文本；智能体给它工具，让它能够行动。',
  },
];

/** Mock weather over built-in data (demo only). Chinese city names get a Chinese report. */
export const demoWeatherTool = defineTool({
  name: 'weather',
  description: 'Current weather for a city (demo data, not live).',
  input: z.object({ city: z.string().describe('City name, e.g. Paris or 北京') }),
  run: ({ city }) => {
    const report = WEATHER[city.trim().toLowerCase()];
    if (report)
      return hasCjk(city) ? `${city}天气：${report}（演示数据）` : `Weather in ${city}: ${report} (demo data)`;
    return `No demo weather data for ${city}. Known: ${Object.keys(WEATHER).join(', ')}`;
  },
});

/** Mock search over a few built-in facts (demo only), answering in the language of the query. */
export const demoSearchTool = defineTool({
  name: 'search',
  description: 'Searches a small built-in knowledge base (demo data, not the web).',
  input: z.object({ query: z.string().describe('What to look for') }),
  run: ({ query }) => {
    const q = ` ${query.toLowerCase()}`;
    const hits = FACTS.filter((f) => f.keys.some((k) => q.includes(k)));
    if (!hits.length) return `No demo results for "${query}".`;
    return hits.map((h) => (hasCjk(query) ? h.zh : h.en)).join(hasCjk(query) ? '' : ' ');
  },
});

/** The lunar holidays, named once: they fall on another date each year. */
const SPRING_FESTIVAL = { en: 'Spring Festival', zh: '春节' };
const DRAGON_BOAT = { en: 'Dragon Boat Festival', zh: '端午节' };
const MID_AUTUMN = { en: 'Mid-Autumn Festival', zh: '中秋节' };

/** Holidays by date: fixed ones by month and day, lunar ones for the years the demo knows. */
const HOLIDAYS: Record<string, { en: string; zh: string }> = {
  '01-01': { en: "New Year's Day", zh: '元旦' },
  '02-14': { en: "Valentine's Day", zh: '情人节' },
  '05-01': { en: 'Labour Day', zh: '劳动节' },
  '06-01': { en: "Children's Day", zh: '儿童节' },
  '10-01': { en: 'National Day', zh: '国庆节' },
  '12-25': { en: 'Christmas', zh: '圣诞节' },
  '2026-02-17': SPRING_FESTIVAL,
  '2026-06-19': DRAGON_BOAT,
  '2026-09-25': MID_AUTUMN,
  '2027-02-06': SPRING_FESTIVAL,
  '2027-06-09': DRAGON_BOAT,
  '2027-09-15': MID_AUTUMN,
};
const ORDINARY = { en: 'an ordinary working day', zh: '普通工作日' };

/** Mock holiday calendar (demo only): which holiday falls on a date. */
export const demoHolidayTool = defineTool({
  name: 'get_holiday',
  description: 'Looks up which holiday falls on a date, given as YYYY-MM-DD (demo data).',
  input: z.object({ date_str: z.string().describe('The date, e.g. 2027-10-01') }),
  examples: [{ date_str: '2027-10-01' }],
  run: ({ date_str }) => {
    const date = date_str.trim().slice(0, 10);
    const found = HOLIDAYS[date] ?? HOLIDAYS[date.slice(5)] ?? ORDINARY;
    return `${date}: ${found.zh} (${found.en})`;
  },
});

const MOVIES: { keys: string[]; en: string; zh: string }[] = [
  { keys: ['春节', 'spring festival'], en: 'Hi, Mom (2021)', zh: '《你好，李焕英》' },
  { keys: ['端午', 'dragon boat'], en: 'Qu Yuan (1977)', zh: '《屈原》' },
  { keys: ['中秋', 'mid-autumn'], en: 'A Chinese Odyssey (1995)', zh: '《大话西游》' },
  { keys: ['国庆', 'national day'], en: 'My People, My Country (2019)', zh: '《我和我的祖国》' },
  { keys: ['劳动', 'labour', 'labor'], en: 'Modern Times (1936)', zh: '《摩登时代》' },
  { keys: ['圣诞', 'christmas'], en: 'Home Alone (1990)', zh: '《小鬼当家》' },
  { keys: ['元旦', 'new year'], en: 'Forrest Gump (1994)', zh: '《阿甘正传》' },
  { keys: ['情人', 'valentine'], en: 'Roman Holiday (1953)', zh: '《罗马假日》' },
  { keys: ['儿童', 'children'], en: 'My Neighbor Totoro (1988)', zh: '《龙猫》' },
];

/** Mock film suggestions by holiday (demo only). */
export const demoMovieTool = defineTool({
  name: 'get_movie_recommendation',
  description: 'Recommends a film to watch on a holiday, given its name (demo data).',
  input: z.object({ holiday_name: z.string().describe('The holiday, e.g. 国庆节 or Christmas') }),
  examples: [{ holiday_name: '国庆节' }],
  run: ({ holiday_name }) => {
    const name = holiday_name.toLowerCase();
    const movie = MOVIES.find((m) => m.keys.some((k) => name.includes(k)));
    if (movie) return hasCjk(holiday_name) ? movie.zh : movie.en;
    return hasCjk(holiday_name) ? '《海上钢琴师》' : 'The Legend of 1900 (1998)';
  },
});

/**
 * The demo tool set: calculator-free helpers with built-in data (weather, search, a holiday calendar,
 * film suggestions). With `calculatorTool` and `demoModel()` they rebuild the CLI's demo agent.
 *
 * @example
 * const agent = new Agent({ model: demoModel(), tools: [calculatorTool, ...demoTools], protocol: 'react' });
 */
export const demoTools = [demoSearchTool, demoWeatherTool, demoHolidayTool, demoMovieTool];
