import { describe, expect, it } from 'vitest';
import { contentText, type Message } from '../../src/core/index.js';
import { createContextWindow, defaultBudgetFor, groupMessages } from '../../src/memory/index.js';
import { truncateObservation } from '../../src/tools/index.js';

const words = (n: number, word = 'data') => Array.from({ length: n }, (_, i) => `${word}${i % 10}`).join(' ');
const head: Message[] = [
  { role: 'system', content: 'You are a careful agent.' },
  { role: 'user', content: 'What is the population of Paris?' },
];

function step(i: number, observationWords = 100): Message[] {
  return [
    {
      role: 'assistant',
      content: `thought ${i}`,
      toolCalls: [{ id: `c${i}`, name: 'search', arguments: `{"q":"${i}"}` }],
    },
    { role: 'tool', toolCallId: `c${i}`, name: 'search', content: `result ${i}: ${words(observationWords)}` },
  ];
}

/** One token per whitespace-separated word: easy to reason about in assertions. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

function assertPairsIntact(messages: Message[]) {
  const calls = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) calls.add(c.id);
    if (m.role === 'tool') expect(calls.has(m.toolCallId), `tool result ${m.toolCallId} lost its call`).toBe(true);
  }
}

describe('createContextWindow', () => {
  it('returns the same message objects when nothing exceeds the budget', async () => {
    const groups = [step(1), step(2)];
    const { messages, summary, dropped } = await createContextWindow({ budgetTokens: 10_000 }).fit({ head, groups });
    expect(messages).toHaveLength(6);
    expect(messages[0]).toBe(head[0]);
    expect(messages[2]).toBe(groups[0][0]);
    expect(summary).toBeUndefined();
    expect(dropped).toBeUndefined();
  });

  it('keeps everything when there is no budget', async () => {
    const groups = Array.from({ length: 50 }, (_, i) => step(i, 500));
    const { messages } = await createContextWindow().fit({ head, groups });
    expect(messages).toHaveLength(2 + 100);
  });

  it('drops the oldest steps first, keeps the head and never separates a call from its result', async () => {
    const context = createContextWindow({ budgetTokens: 600, countTokens: countWords });
    const groups = Array.from({ length: 20 }, (_, i) => step(i, 100));
    const fit = await context.fit({ head, groups });
    expect(fit.messages.slice(0, 2)).toEqual(head);
    expect(fit.messages.at(-1)).toBe(groups[19][1]);
    expect(fit.dropped?.groups).toBeGreaterThan(10);
    assertPairsIntact(fit.messages);
    const total = fit.messages.reduce((n, m) => n + 4 + countWords(contentText(m.content)) + 6, 0);
    expect(total).toBeLessThanOrEqual(600);
  });

  it('trims history before any step', async () => {
    const history: Message[] = [
      { role: 'user', content: words(200) },
      { role: 'assistant', content: '', toolCalls: [{ id: 'h1', name: 'x', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'h1', content: words(200) },
      { role: 'assistant', content: words(50) },
    ];
    const groups = [step(1, 50), step(2, 50)];
    const context = createContextWindow({
      budgetTokens: 300,
      countTokens: countWords,
      compaction: { at: 1, to: 0.75 },
    });
    const fit = await context.fit({ head, history, groups });
    expect(fit.dropped).toEqual({ historyMessages: 3, groups: 0 });
    expect(fit.messages.slice(0, 3)).toEqual([head[0], history[3], head[1]]);
    expect(fit.messages).toContain(history[3]);
    expect(fit.messages).not.toContain(history[2]);
    assertPairsIntact(fit.messages);
  });

  it('summarizes incrementally: the previous summary plus the newly dropped steps', async () => {
    const seen: Message[][] = [];
    const context = createContextWindow({
      budgetTokens: 800,
      countTokens: countWords,
      summarize: async (messages) => {
        seen.push(messages);
        return `summary #${seen.length}`;
      },
    });
    const groups: Message[][] = [];
    const summaries: { text: string; droppedGroups: number }[] = [];
    for (let i = 0; i < 30; i++) {
      groups.push(step(i, 100));
      const fit = await context.fit({ head, groups });
      if (fit.summary) summaries.push(fit.summary);
      assertPairsIntact(fit.messages);
      expect(fit.messages.slice(0, 2)).toEqual(head);
    }
    expect(summaries.length).toBeGreaterThan(1);
    expect(summaries.length).toBeLessThan(15); // hysteresis: not every step
    // The second call got the first summary, and only the steps dropped since.
    expect(seen[1][0].content).toContain('summary #1');
    const firstIds = new Set(
      seen[0].filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId),
    );
    for (const m of seen[1].slice(1)) if (m.role === 'tool') expect(firstIds.has(m.toolCallId)).toBe(false);
    const droppedTotal = summaries.reduce((n, s) => n + s.droppedGroups, 0);
    const last = await context.fit({ head, groups });
    expect(last.messages[2].content).toContain(`summary #${seen.length}`);
    expect(last.messages[2].content).toContain(`${droppedTotal} earlier steps`);
  });

  it('warns, and still fits, when the summarizer fails', async () => {
    const context = createContextWindow({
      budgetTokens: 500,
      countTokens: countWords,
      summarize: async () => {
        throw new Error('model down');
      },
    });
    const fit = await context.fit({ head, groups: Array.from({ length: 10 }, (_, i) => step(i, 100)) });
    expect(fit.warning).toContain('model down');
    expect(fit.summary).toBeUndefined();
    expect(fit.messages.length).toBeLessThan(22);
  });

  it('rethrows when the run was aborted during summarizing', async () => {
    const controller = new AbortController();
    const context = createContextWindow({
      budgetTokens: 500,
      countTokens: countWords,
      summarize: async (_m, signal) => {
        controller.abort();
        signal?.throwIfAborted();
        return 'never';
      },
    });
    await expect(
      context.fit({ head, groups: Array.from({ length: 10 }, (_, i) => step(i, 100)) }, controller.signal),
    ).rejects.toThrow();
  });

  it('caps each tool message to head + tail, keeping the original untouched', async () => {
    const groups = [step(1, 5000)];
    const original = groups[0][1].content;
    const fit = await createContextWindow({ observationLimit: 1000 }).fit({ head, groups });
    const tool = fit.messages[3];
    expect(tool.content.length).toBeLessThanOrEqual(1000);
    expect(tool.content).toContain('characters cut');
    expect(contentText(tool.content).startsWith('result 1:')).toBe(true);
    expect(groups[0][1].content).toBe(original);
    // Same capped object on the next call, so its token count stays cached.
    const again = await createContextWindow({ observationLimit: 1000 }).fit({ head, groups });
    expect(again.messages[3].content).toBe(tool.content);
  });

  it('caps a tool message of emoji within the limit without splitting a surrogate pair', async () => {
    const groups = [step(1, 10)];
    groups[0][1] = { ...groups[0][1], content: '😀'.repeat(1000) };
    const fit = await createContextWindow({ observationLimit: 301 }).fit({ head, groups });
    const content = fit.messages[3].content;
    expect(content.length).toBeLessThanOrEqual(301);
    expect(content).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it('starts over when handed another run', async () => {
    const context = createContextWindow({ budgetTokens: 400, countTokens: countWords });
    await context.fit({ head, groups: Array.from({ length: 10 }, (_, i) => step(i, 100)) });
    const fresh = [step(100, 10)];
    const fit = await context.fit({ head, groups: fresh });
    expect(fit.messages).toEqual([...head, ...fresh[0]]);
  });
});

describe('helpers', () => {
  it('groupMessages keeps tool results with their call', () => {
    const groups = groupMessages([head[1], ...step(1), ...step(2), { role: 'assistant', content: 'done' }]);
    expect(groups.map((g) => g.length)).toEqual([1, 2, 2, 1]);
  });

  it('caps a tool message with truncateObservation, the same cut as the tool executor, within the limit', () => {
    expect(truncateObservation('short', 100)).toBe('short');
    const long = 'a'.repeat(500) + 'b'.repeat(500);
    const cut = truncateObservation(long, 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/^a+\n\[\.\.\. \d+ characters cut \.\.\.\]\nb+$/);
  });

  it('defaultBudgetFor takes 75% of the window minus a reply reserve', () => {
    expect(defaultBudgetFor({})).toBeUndefined();
    expect(defaultBudgetFor({ contextWindow: 8192 })).toBe(6144 - 819);
    expect(defaultBudgetFor({ contextWindow: 128_000 })).toBe(96_000 - 4096);
  });
});
