import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSameObservationTracker, observationSimilarity } from '../../src/agent/guards/index.js';
import { Agent, type AgentEvent, defineTool, scriptedModel } from '../../src/index.js';
import { call } from './helpers.js';

// A search tool that never finds anything, and says so with the query in the message.
const search = defineTool({
  name: 'search',
  description: '搜索信息',
  input: z.object({ query: z.string() }),
  run: ({ query }) => `未找到关于“${query}”的信息，请换个关键词。`,
});
const QUERIES = ['北京天气', '北京今日天气', '北京的天气', '北京天气预报', '北京今天天气', '北京天气情况'];

describe('no progress: nearly the same observation step after step', () => {
  it('five near-identical "未找到…" results warn, then stop the run as loop_detected', async () => {
    const model = scriptedModel([...QUERIES.map((q, i) => call('search', { query: q }, `c${i}`)), 'never reached']);
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [search] }).run('北京天气？', { onEvent: (e) => events.push(e) });
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('same_observation');
    expect(result.error?.message).toMatch(/Nearly the same observation came back 4 steps in a row/);
    expect(
      events.some((e) => e.type === 'warning' && /nearly the same observation 3 steps/.test(JSON.stringify(e))),
    ).toBe(true);
  });

  it('threshold 1 counts identical observations only', async () => {
    const model = scriptedModel([...QUERIES.map((q, i) => call('search', { query: q }, `c${i}`)), '找不到。']);
    const result = await new Agent({ model, tools: [search], sameObservationThreshold: 1 }).run('北京天气？');
    expect(result.status).toBe('done');
  });

  it('different results are progress', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up a city.',
      input: z.object({ city: z.string() }),
      run: ({ city }) =>
        ({ 北京: '北京：晴，25度，北风二级', 上海: '上海：小雨，22度，东南风', 广州: '广州：多云转阴，30度' })[city] ??
        '?',
    });
    const model = scriptedModel([
      call('lookup', { city: '北京' }, 'a'),
      call('lookup', { city: '上海' }, 'b'),
      call('lookup', { city: '广州' }, 'c'),
      call('lookup', { city: '北京' }, 'd'),
      '完成',
    ]);
    const result = await new Agent({ model, tools: [lookup] }).run('三个城市的天气');
    expect(result.status).toBe('done');
  });

  it('short results that differ only in numbers, dates or ids are the same: the run stops', async () => {
    let attempt = 0;
    const find = defineTool({
      name: 'find',
      description: '查找',
      input: z.object({ q: z.string() }),
      run: () =>
        `未找到结果（第 ${++attempt} 次，${2026 + attempt}-0${attempt}-1${attempt}，请求 req_${attempt}f${attempt}a）`,
    });
    const model = scriptedModel([
      ...Array.from({ length: 9 }, (_, i) => call('find', { q: `第${i}页` }, `f${i}`)),
      '完',
    ]);
    const result = await new Agent({ model, tools: [find] }).run('找');
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('same_observation');
    expect(observationSimilarity('No results (attempt 3)', 'No results (attempt 4)')).toBe(1);
    expect(observationSimilarity('Error: timeout after 3000 ms', 'Error: timeout after 5000 ms')).toBe(1);
    expect(observationSimilarity('Not found: order 8f3a-21c9', 'Not found: order 77b0-e4d2')).toBe(1);
    // A bare value that changes (a calculator's 2, 4, 6) is progress.
    expect(observationSimilarity('2', '4')).toBe(0);
    expect(observationSimilarity('= 12.5', '= 13')).toBeLessThan(1);
  });

  it('a short result that echoes the number the model asked for is progress (step 1, step 2, …)', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes its text.',
      input: z.object({ text: z.string() }),
      run: ({ text }) => text,
    });
    const page = defineTool({
      name: 'page',
      description: '读取某一页',
      input: z.object({ n: z.number() }),
      run: ({ n }) => `第 ${n} 页：暂无内容`,
    });
    const steps = scriptedModel([...Array.from({ length: 6 }, (_, i) => call('echo', { text: `step ${i}` })), 'done']);
    expect((await new Agent({ model: steps, tools: [echo] }).run('go')).status).toBe('done');
    const pages = scriptedModel([...Array.from({ length: 6 }, (_, i) => call('page', { n: i + 1 })), '完']);
    expect((await new Agent({ model: pages, tools: [page] }).run('读')).status).toBe('done');
    // The same tool counting on by itself, whatever the model asked, still stops.
    let attempt = 0;
    const retry = defineTool({
      name: 'retry',
      description: 'Retries.',
      input: z.object({ text: z.string() }),
      run: () => `No results (attempt ${++attempt})`,
    });
    const again = scriptedModel([...Array.from({ length: 6 }, (_, i) => call('retry', { text: `q${i}` })), 'x']);
    expect((await new Agent({ model: again, tools: [retry] }).run('go')).status).toBe('loop_detected');
  });

  it('reading 60 different long documents one by one is progress', async () => {
    const doc = (n: number) =>
      `Document ${n}: ${Array.from({ length: 40 }, (_, i) => `w${(n * 7919 + i * 104729) % 100003}`).join(' ')}`;
    const read = defineTool({
      name: 'read',
      description: 'Reads a document.',
      input: z.object({ n: z.number() }),
      run: ({ n }) => doc(n),
    });
    const model = scriptedModel([...Array.from({ length: 60 }, (_, i) => call('read', { n: i }, `r${i}`)), 'done']);
    const result = await new Agent({ model, tools: [read], maxSteps: 100 }).run('read all');
    expect(result.status).toBe('done');
  });

  it('similarity ignores case, width and punctuation, and works on Chinese characters', () => {
    expect(observationSimilarity('No results.', 'no results')).toBe(1);
    expect(observationSimilarity('未找到关于北京天气的信息。', '未找到关于北京今日天气的信息')).toBeGreaterThan(0.8);
    expect(observationSimilarity('北京：晴，25度', '上海：小雨，22度')).toBeLessThan(0.5);
    // A number that moved is progress (a counter, a percentage), however long the text around it.
    expect(
      observationSimilarity(`status: running 42% ${'x'.repeat(500)}`, `status: running 43% ${'x'.repeat(500)}`),
    ).toBe(0);
  });
});

describe('no progress: a rephrased search', () => {
  // An encyclopedia search as in ReAct trajectories: a miss names the query and lists similar titles,
  // which change with the query; the fifth rephrasing finds the page.
  const TITLES = [
    'Milhouse Van Houten',
    'Pamela Hayden',
    'Bart Simpson',
    'List of The Simpsons characters',
    'Kirk Van Houten',
    'Luann Van Houten',
    'The Simpsons (season 1)',
    'Springfield Elementary School',
    'Jimbo Jones',
    'Martin Prince',
    'Nelson Muntz',
    'Ralph Wiggum',
  ];
  const OTHERS = ['Nancy Cartwright', 'Voice acting', 'Milhouse of Sand and Fog', 'List of The Simpsons cast members'];
  const QUERIES = ['Milhouse voice', 'Milhouse voice actor', 'voice of Milhouse', 'Milhouse Simpsons voice actress'];
  const PAGE = 'Milhouse Mussolini Van Houten is voiced by Pamela Hayden, who also voices Jimbo Jones.';
  const miss = (query: string) => {
    const i = QUERIES.indexOf(query);
    const similar = TITLES.map((t, j) => (i > 0 && j === TITLES.length - i ? OTHERS[i - 1] : t));
    return `Could not find [${query}]. Similar: [${similar.map((t) => `'${t}'`).join(', ')}].`;
  };
  const encyclopedia = (queries: string[]) =>
    defineTool({
      name: 'Search',
      description: 'Searches an encyclopedia.',
      input: z.object({ query: z.string() }),
      run: ({ query }) => {
        queries.push(query);
        return query === 'Pamela Hayden' ? PAGE : miss(query);
      },
    });

  it('new results for each rephrasing are progress, however alike the texts: the run goes on', async () => {
    // The misses are alike enough to count as the same observation by their text alone.
    for (let i = 1; i < QUERIES.length; i++) {
      expect(observationSimilarity(miss(QUERIES[i - 1]), miss(QUERIES[i]))).toBeGreaterThanOrEqual(0.8);
    }
    const queries: string[] = [];
    const replies = [
      ...QUERIES.map((q, i) => `Thought ${i + 1}: Search again.\nAction ${i + 1}: Search[${q}]`),
      'Thought 5: Search the actress.\nAction 5: Search[Pamela Hayden]',
      'Thought 6: Found it.\nAction 6: Finish[Pamela Hayden]',
    ];
    const agent = new Agent({ model: scriptedModel(replies), tools: [encyclopedia(queries)], protocol: 'react' });
    const result = await agent.run('Who voices Milhouse?');
    expect(result.status).toBe('done');
    expect(result.output).toBe('Pamela Hayden');
    expect(queries).toEqual([...QUERIES, 'Pamela Hayden']);
  });

  it('the tracker: new results are progress only when the calls asked something else', () => {
    const decide = (tracker: ReturnType<typeof createSameObservationTracker>, query: string, asked: string) => {
      const r = tracker.check(miss(query), [{ name: 'Search', input: { query: asked } }]);
      return r.stop ? 'stop' : r.warning ? 'warn' : '';
    };
    const rephrased = createSameObservationTracker({ limit: 2, threshold: 0.8 });
    expect(QUERIES.map((q) => decide(rephrased, q, q))).toEqual(['', '', '', '']);
    // The same query written four ways (the results drifting anyway): the old, plain similarity decides.
    const same = createSameObservationTracker({ limit: 2, threshold: 0.8 });
    const spellings = ['Milhouse voice', 'milhouse VOICE', ' Milhouse, voice!', 'MILHOUSE voice'];
    expect(QUERIES.map((q, i) => decide(same, q, spellings[i]))).toEqual(['', 'warn', 'stop', 'stop']);
  });

  it('the same query but for case, spaces and punctuation, with the same result, still stops', async () => {
    const same = ['Milhouse voice', 'milhouse  voice', 'Milhouse voice?', 'MILHOUSE VOICE', '"Milhouse voice"'];
    const search = defineTool({
      name: 'Search',
      description: 'Searches an encyclopedia (case and punctuation do not matter).',
      input: z.object({ query: z.string() }),
      run: () => miss('Milhouse voice'),
    });
    const replies = [...same.map((q) => `Thought: Search.\nAction: Search[${q}]`), 'Final Answer: never reached'];
    const agent = new Agent({ model: scriptedModel(replies), tools: [search], protocol: 'react' });
    const result = await agent.run('Who voices Milhouse?');
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('same_observation');
    expect(result.error?.message).toMatch(/^The same observation came back 4 steps/);
  });

  it('a rephrasing whose result only echoes the query still stops', async () => {
    const search = defineTool({
      name: 'Search',
      description: 'Searches an encyclopedia.',
      input: z.object({ query: z.string() }),
      run: ({ query }) => `Could not find [${query}]. Similar: [${TITLES.map((t) => `'${t}'`).join(', ')}].`,
    });
    const replies = [...QUERIES, 'Milhouse actress'].map((q) => `Thought: Search.\nAction: Search[${q}]`);
    const agent = new Agent({
      model: scriptedModel([...replies, 'Final Answer: x']),
      tools: [search],
      protocol: 'react',
    });
    const result = await agent.run('Who voices Milhouse?');
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('same_observation');
  });

  it('two queries in turn, written a little differently each time, with their results, stop as no progress', async () => {
    // A search that ignores case and punctuation: "milhouse voice!" finds what "Milhouse voice" does.
    const plain = (q: string) => q.toLowerCase().replace(/[^a-z]/g, '');
    const search = defineTool({
      name: 'Search',
      description: 'Searches an encyclopedia.',
      input: z.object({ query: z.string() }),
      run: ({ query }) => miss(QUERIES.find((q) => plain(q) === plain(query)) ?? query),
    });
    const [a, b] = QUERIES;
    const turns = [a, b, a.toLowerCase(), b.toUpperCase(), `${a}!`, `"${b}"`];
    const replies = turns.map((q) => `Thought: Search.\nAction: Search[${q}]`);
    const agent = new Agent({
      model: scriptedModel([...replies, 'Final Answer: x']),
      tools: [search],
      protocol: 'react',
    });
    const result = await agent.run('Who voices Milhouse?');
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('same_observation');
    expect(result.steps.length).toBe(5);
  });

  it('two queries in turn, each with its own result every time, stop as repeated calls', async () => {
    const queries: string[] = [];
    const [a, b] = QUERIES;
    const replies = [a, b, a, b, a, b].map((q) => `Thought: Search.\nAction: Search[${q}]`);
    const agent = new Agent({
      model: scriptedModel([...replies, 'Final Answer: x']),
      tools: [encyclopedia(queries)],
      protocol: 'react',
    });
    const result = await agent.run('Who voices Milhouse?');
    expect(result.status).toBe('loop_detected');
    expect(result.error?.code).toBe('repeated_call');
    expect(queries).toEqual([a, b, a, b]);
  });
});
