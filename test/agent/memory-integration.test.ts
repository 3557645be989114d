import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, contentText, type Message, scriptedModel } from '../../src/index.js';
import { defaultBudgetFor } from '../../src/memory/index.js';
import { SqliteMemoryStore, SqliteSessionStore } from '../../src/memory/node.js';
import { call, waitTool } from './helpers.js';

const tokens = (messages: Message[]) => messages.reduce((n, m) => n + countTokens(contentText(m.content)) + 4, 0);

describe('Agent with memory', () => {
  it('keeps every prompt within the context budget, summarising older steps', async () => {
    const replies = Array.from({ length: 30 }, (_, i) => call('wait', { id: `step-${i}-${'x'.repeat(40)}` }, `c${i}`));
    const big = defineBigTool();
    const model = scriptedModel(
      (req, i) => {
        if (contentText(req.messages[0].content).startsWith('Summarize'))
          return 'Summary: the big tool was called many times.';
        return i < 40 && replies.length ? (replies.shift() ?? 'done') : 'done';
      },
      { contextWindow: 8_000 },
    );
    const events: AgentEvent[] = [];
    const result = await new Agent({ model, tools: [big], maxSteps: 40 }).run('Call the tool a lot', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('done');
    const agentCalls = model.calls.filter((c) => !contentText(c.messages[0].content).startsWith('Summarize'));
    const largest = Math.max(...agentCalls.map((c) => tokens(c.messages)));
    expect(largest).toBeLessThanOrEqual(defaultBudgetFor(model)!);
    expect(events.some((e) => e.type === 'context_summary')).toBe(true);
    // Trimming never separates a tool call from its result.
    for (const c of agentCalls) {
      const ids = new Set(
        c.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((t) => t.id) : [])),
      );
      for (const m of c.messages) if (m.role === 'tool') expect(ids.has(m.toolCallId)).toBe(true);
    }
  });

  it('a session carries the conversation across runs', async () => {
    const sessions = new SqliteSessionStore({ file: ':memory:' });
    const model = scriptedModel(['Nice to meet you, Ada.', 'Your name is Ada.']);
    const agent = new Agent({ model, sessions });
    await agent.run('My name is Ada.', { sessionId: 's1' });
    const second = await agent.run('What is my name?', { sessionId: 's1' });
    expect(second.output).toBe('Your name is Ada.');
    const sent = model.calls[1].messages.map((m) => m.content);
    expect(sent).toContain('My name is Ada.');
    expect(sent).toContain('Nice to meet you, Ada.');
    expect(sent.at(-1)).toBe('What is my name?');
    expect(await sessions.load('s1')).toHaveLength(4);
  });

  it('a sessionId without a session store is a clear error', async () => {
    const agent = new Agent({ model: scriptedModel(['x']) });
    await expect(agent.run('x', { sessionId: 's' })).rejects.toThrow(/needs a session store/);
  });

  it('recalls memories into the prompt and stores an episode after success', async () => {
    const store = new SqliteMemoryStore({ file: ':memory:' });
    await store.add({ kind: 'fact', text: 'The user prefers metric units (celsius, kilometres).', tags: ['prefs'] });
    const model = scriptedModel(['It is 21 °C.']);
    const events: AgentEvent[] = [];
    await new Agent({ model, memory: { store } }).run('What units does the user prefer for temperature?', {
      onEvent: (e) => events.push(e),
    });
    const recall = events.find((e) => e.type === 'memory_recall');
    expect(recall && recall.type === 'memory_recall' && recall.memories[0].text).toMatch(/metric/);
    expect(model.calls[0].messages[0].content).toMatch(/metric units/);
    expect(events.some((e) => e.type === 'memory_store')).toBe(true);
    const episodes = await store.list({ kinds: ['episode'] });
    expect(episodes).toHaveLength(1);
  });
});

function defineBigTool() {
  const tool = waitTool('wait', 0);
  return {
    ...tool,
    run: async ({ id }: { id: string }) =>
      `${id}: ${Array.from({ length: 150 }, (_, k) => `r${k}q${id.length}`).join(' ')}`,
  };
}

describe('Agent with a failing memory store', () => {
  it('goes on without recalled memories and says why in a warning', async () => {
    const store = new SqliteMemoryStore({ file: ':memory:' });
    store.search = async () => {
      throw new Error('disk I/O error');
    };
    const events: AgentEvent[] = [];
    const result = await new Agent({ model: scriptedModel(['fine']), memory: { store } }).run('x', {
      onEvent: (e) => events.push(e),
    });
    expect(result.status).toBe('done');
    expect(events.find((e) => e.type === 'warning')).toMatchObject({
      code: 'memory_recall',
      message: expect.stringMatching(/disk I\/O error/),
    });
  });
});
