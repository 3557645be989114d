import { expressionIn, normalizeExpression } from '../core/index.js';
import { arabicNumerals } from './chinese-numerals.js';
import { findExpressions } from './demo-expression.js';

/**
 * The demo model's intent rules: what a question asks for, as a chain of tool calls whose inputs may
 * come from earlier observations (search → calculator, holiday → film, two cities → a difference),
 * or an answer at once (a greeting, or asking back for a missing detail). Rules, not sentences: each
 * reads the question's parts (cities, dates, days, an operation on a looked-up number).
 */

export type Lang = 'en' | 'zh';

/** One tool call of a plan: its input can read the observations so far. */
export interface DemoStep {
  tool: string;
  input: (observations: string[]) => Record<string, unknown>;
  why: string;
}

export type Plan = { steps: DemoStep[]; finish: (observations: string[]) => string } | { answer: string };

/** Cities the demo weather tool knows (English and Chinese names). */
export const CITIES = [
  'Beijing',
  'Shanghai',
  'Shenzhen',
  'Guangzhou',
  'Hangzhou',
  'Paris',
  'London',
  'Tokyo',
  'New York',
  'Berlin',
  'Sydney',
  '北京',
  '上海',
  '深圳',
  '广州',
  '杭州',
  '巴黎',
  '伦敦',
  '东京',
];

const HOLIDAY_NAMES =
  /(春节|元旦|端午节?|中秋节?|国庆节?|劳动节|圣诞节?|情人节|儿童节|Christmas|New Year|Valentine|Labou?r Day|National Day|Mid-Autumn|Dragon Boat|Spring Festival)/i;
const MONTHS = 'january february march april may june july august september october november december'.split(' ');

const say = (lang: Lang, en: string, zh: string) => (lang === 'zh' ? zh : en);
const firstNumber = (text: string) => text.replace(/(\d),(?=\d{3})/g, '$1').match(/-?\d+(?:\.\d+)?/)?.[0];
const temperature = (text: string) => text.match(/(-?\d+(?:\.\d+)?)\s*°C/)?.[1];

/** Every known city in the order the question names them. */
function citiesIn(question: string): string[] {
  const lower = question.toLowerCase();
  return CITIES.map((c) => ({ c, at: lower.indexOf(c.toLowerCase()) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.c);
}

// Words around a city name that are not the city: verbs, time words, politeness.
const NOT_A_CITY =
  /^(?:请|帮我|帮忙|麻烦|查询|查一下|查查|查|看看|看一下|告诉我|问一下|我想知道|想知道|今天|明天|后天|现在|本周|这周|周末|当地|一下)+|(?:今天|明天|后天|现在|的)+$/g;

/** A city the demo does not know but the question names (`in Madrid`, `杭州天气`), else none. */
function otherCity(question: string): string | undefined {
  const english = question.match(/\b(?:in|for|at)\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)/);
  if (english) return english[1];
  const chinese = question.match(/([\u4e00-\u9fff]{2,8}?)(?:的)?(?:天气|气温)/);
  const name = chinese?.[1].replace(NOT_A_CITY, '');
  return name && name.length >= 2 ? name : undefined;
}

/** A date in the question as YYYY-MM-DD: 2027-08-15, 2027年8月15日, August 15, 2027; `today` for 今天/today. */
function dateIn(question: string, today: Date): string | undefined {
  const pad = (n: number | string) => String(n).padStart(2, '0');
  const iso = question.match(/(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/);
  if (iso) return `${iso[1]}-${pad(iso[2])}-${pad(iso[3])}`;
  const zh = question.match(/(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/);
  if (zh) return `${zh[1] ?? today.getFullYear()}-${pad(zh[2])}-${pad(zh[3])}`;
  const en = question.match(
    new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s*(\\d{4}))?`, 'i'),
  );
  if (en) return `${en[3] ?? today.getFullYear()}-${pad(MONTHS.indexOf(en[1].toLowerCase()) + 1)}-${pad(en[2])}`;
  if (/今天|today/i.test(question))
    return `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  return undefined;
}

const ZH_DIGITS: Record<string, number> = { 一: 1, 两: 2, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7 };

function daysIn(question: string): number | undefined {
  const m = question.match(/(\d+|[一两二三四五六七])\s*(?:天|日游|日|-?day|days)/i);
  if (!m) return undefined;
  return ZH_DIGITS[m[1]] ?? Number(m[1]);
}

/** A greeting, or a request to introduce itself. */
function greeting(question: string, lang: Lang): Plan | undefined {
  const hello = /^\s*(hi|hello|hey|你好|您好|嗨|哈喽)[\s!！.。,，~]*$/i.test(question);
  const intro =
    /介绍一下?(你自己|自己)|自我介绍|你是谁|你叫什么|你能做什么|introduce yourself|who are you|what can you do/i.test(
      question,
    );
  if (!hello && !intro) return undefined;
  const skills = say(
    lang,
    'I can do arithmetic, look up the weather in a few cities, search a few built-in facts, find the holiday on a date and suggest a film, and plan a short trip.',
    '我会算术、查询几个城市的天气、搜索几条内置知识、查某天是什么节日并推荐电影，还能规划简短的行程。',
  );
  if (!intro) {
    return {
      answer: say(
        lang,
        'Hello! I am the demo model. Try: What is (15 + 7) * 3? or: What is the weather in Paris?',
        '你好！我是演示模型。试试问我：(15+7)*3 等于多少？或者：北京天气怎么样？',
      ),
    };
  }
  return {
    answer: say(
      lang,
      `Hello! I am thinkflow's demo model, a rule-based stand-in for an LLM that shows the think → act → observe loop. ${skills}`,
      `你好！我是 thinkflow 的演示模型，一个按规则模拟大模型的程序，用来展示“思考 → 行动 → 观察”的循环。${skills}`,
    ),
  };
}

const weatherStep = (city: string, lang: Lang): DemoStep => ({
  tool: 'weather',
  input: () => ({ city }),
  why: say(lang, `I need the weather in ${city}.`, `我需要查询${city}的天气。`),
});

const askCity = (lang: Lang, purpose: 'weather' | 'trip'): Plan => ({
  answer:
    purpose === 'weather'
      ? say(
          lang,
          `Which city? The demo has weather for ${CITIES.filter((c) => /^[A-Z]/.test(c)).join(', ')}.`,
          `请问是哪个城市？演示数据有：${CITIES.filter((c) => /[\u4e00-\u9fff]/.test(c)).join('、')}。`,
        )
      : say(lang, 'Which city would you like to visit?', '请问你想去哪个城市旅行？'),
});

/** A trip of N days to a city: its weather and sights, then a day-by-day plan. */
function trip(question: string, lang: Lang): Plan | undefined {
  if (
    !/(规划|计划|安排|攻略|行程|plan|itinerary).{0,20}(旅行|旅游|游玩|出游|行程|trip|travel|visit|holiday)|(旅行|旅游|trip)\s*(计划|规划|攻略|plan)/i.test(
      question,
    )
  )
    return undefined;
  const [city] = citiesIn(question);
  if (!city) return askCity(lang, 'trip');
  const days = daysIn(question) ?? 3;
  return {
    steps: [
      weatherStep(city, lang),
      {
        tool: 'search',
        input: () => ({ query: say(lang, `${city} sights`, `${city}景点`) }),
        why: say(lang, `Now the sights of ${city}.`, `再查一下${city}有哪些景点。`),
      },
    ],
    finish: ([weather, sights]) => {
      const list = (sights.split(/[:：]/).at(-1) ?? '')
        .split(/[、,，]\s*|\s+and\s+/)
        .map((s) => s.replace(/[.。]$/, '').trim())
        .filter(Boolean);
      const perDay = Math.max(1, Math.ceil(list.length / days));
      const plan = Array.from({ length: days }, (_, d) => {
        const today = list.slice(d * perDay, (d + 1) * perDay);
        const what = today.length
          ? today.join(say(lang, ', ', '、'))
          : say(lang, 'free time and local food', '自由活动、品尝当地美食');
        return say(lang, `Day ${d + 1}: ${what}`, `第${d + 1}天：${what}`);
      });
      return say(
        lang,
        `A ${days}-day plan for ${city} (${weather}): ${plan.join('; ')}.`,
        `${city}${days}日游计划（${weather}）：${plan.join('；')}。`,
      );
    },
  };
}

/** The holiday on a date and a film for it; or a film for a holiday the question names. */
function holidayFilm(question: string, lang: Lang, today: Date): Plan | undefined {
  const film = /电影|影片|片子|movie|film/i.test(question);
  const holidayAsked = /节日|节假日|假日|什么节|holiday|festival/i.test(question);
  if (!film && !holidayAsked) return undefined;
  const named = question.match(HOLIDAY_NAMES)?.[1];
  const movieStep = (holiday: (o: string[]) => string): DemoStep => ({
    tool: 'get_movie_recommendation',
    input: (o) => ({ holiday_name: holiday(o) }),
    why: say(lang, 'Now a film for that day.', '再根据节日推荐电影。'),
  });
  if (film && named) {
    return {
      steps: [movieStep(() => named)],
      finish: ([movie]) => say(lang, `For ${named}: ${movie}.`, `${named}推荐你看${movie}。`),
    };
  }
  const date = dateIn(question, today);
  if (!date) return undefined;
  const holidayOf = (o: string[]) => {
    const found = o[0].match(/:\s*([^(（]+?)\s*[(（]([^)）]+)[)）]/);
    return found ? (lang === 'zh' ? found[1] : found[2]) : o[0];
  };
  const holidayStep: DemoStep = {
    tool: 'get_holiday',
    input: () => ({ date_str: date }),
    why: say(lang, `First, which holiday is ${date}?`, `先查一下${date}是什么节日。`),
  };
  if (!film)
    return {
      steps: [holidayStep],
      finish: (o) => say(lang, `${date} is ${holidayOf(o)}.`, `${date}是${holidayOf(o)}。`),
    };
  return {
    steps: [holidayStep, movieStep(holidayOf)],
    finish: (o) =>
      say(lang, `${date} is ${holidayOf(o)}; a film for it: ${o[1]}.`, `${date}是${holidayOf(o)}，推荐你看${o[1]}。`),
  };
}

/** Weather in the cities named, and their temperature difference when asked. */
function weather(question: string, lang: Lang): Plan | undefined {
  if (!/weather|temperature|forecast|warmer|colder|天气|气温|温度|温差|下雨|冷不冷|热不热/i.test(question))
    return undefined;
  const cities = citiesIn(question);
  const other = cities.length ? undefined : otherCity(question);
  if (other) cities.push(other);
  if (!cities.length) return askCity(lang, 'weather');
  const steps = cities.map((c) => weatherStep(c, lang));
  const difference = cities.length >= 2 && /差|相差|温差|比|difference|warmer|colder|compare/i.test(question);
  if (difference) {
    steps.push({
      tool: 'calculator',
      input: (o) => ({ expression: `${temperature(o[0]) ?? 0} - ${temperature(o[1]) ?? 0}` }),
      why: say(lang, 'Now the difference of the two temperatures.', '再计算两地的气温差。'),
    });
  }
  const expressions = findExpressions(question);
  for (const expression of expressions) steps.push(calculatorStep(expression, lang));
  return {
    steps,
    finish: (o) => {
      const reports = o.slice(0, cities.length);
      const parts = [...reports];
      if (difference) parts.push(say(lang, `difference ${o[cities.length]}°C`, `气温差${o[cities.length]}°C`));
      for (const [i, e] of expressions.entries()) parts.push(`${e} = ${o[cities.length + (difference ? 1 : 0) + i]}`);
      return parts.join(say(lang, '; ', '；'));
    },
  };
}

const calculatorStep = (expression: string, lang: Lang): DemoStep => ({
  tool: 'calculator',
  input: () => ({ expression }),
  why: say(lang, 'This needs arithmetic, so I will use the calculator.', '这需要计算，我使用计算器。'),
});

// An operation on a number the question does not give: "地球周长……除以1000", "then divide it by 1000".
const FOLLOW_UP =
  /(?:再|然后|并且?|把它|把结果|and then|then|and)?\s*(除以|÷|\/|divided by|divide (?:it|that) by|乘以|×|times|multiply (?:it|that) by|加上|plus|减去|minus)\s*(\d+(?:\.\d+)?)/i;
const OPERATOR: Record<string, string> = { 除以: '/', '÷': '/', '/': '/', 乘以: '*', '×': '*', 加上: '+', 减去: '-' };

/** Search, then arithmetic on the number found. */
function searchThenCalculate(question: string, lang: Lang): Plan | undefined {
  const m = question.match(FOLLOW_UP);
  if (!m || m.index === undefined) return undefined;
  // The operation must act on a looked-up number: no operand right before it in the question, read as
  // the calculator reads it ("(3+5)×2", "（2+3）×4", "五×2", "50%×2" hold their own).
  // A unit word after the number ("40075公里除以1000") belongs to it, as the calculator reads it.
  if (/(?:[)%!]|\d\s*\p{sc=Han}{0,3})\s*$/u.test(arabicNumerals(normalizeExpression(question.slice(0, m.index))))) {
    return undefined;
  }
  const word = m[1].toLowerCase();
  const op =
    OPERATOR[word] ?? (/divid/.test(word) ? '/' : /multipl|times/.test(word) ? '*' : /plus/.test(word) ? '+' : '-');
  const topic = question
    .slice(0, m.index)
    .replace(/[，,。.;；]\s*$/, '')
    .trim();
  return {
    steps: [
      searchStep(topic, lang),
      {
        tool: 'calculator',
        input: (o) => ({ expression: `${firstNumber(o[0]) ?? 0} ${op} ${m[2]}` }),
        why: say(lang, `Now ${m[1]} ${m[2]} with the calculator.`, `再用计算器${m[1]}${m[2]}。`),
      },
    ],
    finish: (o) => `${o[0]} ${firstNumber(o[0]) ?? 0} ${op} ${m[2]} = ${o[1]}`,
  };
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

const searchStep = (question: string, lang: Lang): DemoStep => ({
  tool: 'search',
  input: () => ({ query: searchQuery(question) }),
  why: say(lang, 'I will search for this first.', '我先搜索相关信息。'),
});

// Forms only the calculator's own reader knows: 【】, √, π, degrees, functions, 的平方.
const CALCULATOR_ONLY = /[【】√π°]|度|[A-Za-z]{2,}\s*\(|的(?:平方|立方)/u;
// What the calculator's reading must be to count as arithmetic: numbers, operators and math names only.
const MATH_ONLY =
  /^(?:[\d\s.+\-*/^%!(),]|abs|sqrt|cbrt|exp|log10|log2|log|ln|asin|acos|atan|sin|cos|tan|round|floor|ceil|min|max|mod|pi|deg)+$/;
const OPERATES = /[-+*/^%!(]|pi/;

/**
 * The arithmetic a question asks for: the demo's own reading (spoken operators, Chinese numerals,
 * several expressions), or the calculator's reading when the question holds a form only the calculator
 * knows or the demo's reading finds none, so the demo reads every form the calculator reads.
 */
function arithmeticIn(question: string): string[] {
  const own = findExpressions(question);
  if (own.length && !CALCULATOR_ONLY.test(question)) return own;
  const normalized = normalizeExpression(question);
  // A question that is an expression in a few asking words ("What is 50%?", "50% 是多少") is that expression.
  const bare = normalized
    .replace(/^(?:what\s+is|calculate|compute|计算(?:一下)?)\s*/i, '')
    .replace(/(?:\s*(?:是多少|等于多少|等于几|是几|[?？.。]))+\s*$/u, '');
  const found = MATH_ONLY.test(bare) ? bare.trim() : expressionIn(normalized);
  // The reader trims a trailing operator, and so a percent sign: "50%" is a number the calculator reads.
  const read = found && normalized.includes(`${found}%`) ? `${found}%` : found;
  return read && /\d/.test(read) && MATH_ONLY.test(read) && OPERATES.test(read) ? [read] : own;
}

/** The plan for a question: the first rule that applies, else arithmetic, else a search. */
export function planFor(question: string, lang: Lang, today = new Date()): Plan {
  const plan =
    greeting(question, lang) ??
    trip(question, lang) ??
    holidayFilm(question, lang, today) ??
    weather(question, lang) ??
    searchThenCalculate(question, lang);
  if (plan) return plan;
  const expressions = arithmeticIn(question);
  if (expressions.length) {
    return {
      steps: expressions.map((e) => calculatorStep(e, lang)),
      finish: (o) => expressions.map((e, i) => `${e} = ${o[i]}`).join(say(lang, '; ', '；')),
    };
  }
  return { steps: [searchStep(question, lang)], finish: ([o]) => o };
}
