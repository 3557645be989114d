import { afterEach, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/index.js';
import { episodeFromRun, recallMemories, reflectionFromRun } from '../../src/memory/index.js';
import { SqliteMemoryStore } from '../../src/memory/node.js';

const store = new SqliteMemoryStore({ file: ':memory:' });
afterEach(async () => {
  for (const m of await store.list({ limit: 1000 })) await store.delete(m.id);
});

const steps: Step[] = [
  {
    index: 0,
    kind: 'tool_calls',
    raw: '',
    toolCalls: [
      { id: 'c1', name: 'calculator', tool: 'calculator', input: { e: '2+2' }, output: '4', ok: true, durationMs: 1 },
      {
        id: 'c2',
        name: 'web_search',
        tool: 'web_search',
        input: {},
        output: '',
        ok: false,
        error: 'timeout after 5000 ms',
        durationMs: 5000,
      },
    ],
  },
  { index: 1, kind: 'invalid', raw: 'blah', toolCalls: [], invalidReason: 'no Action or Final Answer found' },
  { index: 2, kind: 'final', raw: 'Final Answer: 4', toolCalls: [], answer: '4' },
];

describe('recallMemories', () => {
  it('renders the top-k memories as a prompt section', async () => {
    await store.addMany([
      { kind: 'fact', text: 'The user prefers metric units.', tags: ['user'] },
      { kind: 'skill', text: 'Convert miles to kilometres with the calculator tool.' },
      { kind: 'fact', text: 'Unrelated: the office closes at six.' },
    ]);
    const { block, memories } = await recallMemories(store, 'Which units does the user prefer?', { k: 1 });
    expect(memories).toHaveLength(1);
    expect(block).toMatch(/^Relevant memories/);
    expect(block).toContain('- [fact] The user prefers metric units. (tags: user)');
    expect(block).not.toContain('office');
  });

  it('gives an empty block when nothing matches', async () => {
    expect(await recallMemories(store, 'quantum chromodynamics')).toEqual({ block: '', memories: [] });
  });
});

describe('episodeFromRun and reflectionFromRun', () => {
  it('an episode holds the task, the outcome and the tools used', async () => {
    const episode = episodeFromRun({ input: 'What is 2+2?', output: '4', status: 'done', steps });
    expect(episode.kind).toBe('episode');
    expect(episode.text).toContain('Task: What is 2+2?');
    expect(episode.text).toContain('Outcome: done. Answer: 4');
    expect(episode.text).toContain('tools used: calculator, web_search; 1 tool calls failed');
    expect(episode.tags).toEqual(['status:done', 'tool:calculator', 'tool:web_search']);
    const stored = await store.add(episode);
    expect((await store.search('2+2', { kinds: ['episode'] }))[0].memory.id).toBe(stored.id);
  });

  it('a reflection names the failure and a lesson, only for runs that went wrong', () => {
    expect(reflectionFromRun({ input: 'q', output: '4', status: 'done', steps })).toBeUndefined();
    expect(reflectionFromRun({ input: 'q', output: '', status: 'aborted', steps })).toBeUndefined();
    const reflection = reflectionFromRun({
      input: 'Find the population of Lyon',
      output: '',
      status: 'max_steps',
      steps,
      error: { code: 'max_steps', message: 'Stopped after 10 steps.' },
    })!;
    expect(reflection.kind).toBe('reflection');
    expect(reflection.text).toContain('ended max_steps: Find the population of Lyon');
    expect(reflection.text).toContain('Why: Stopped after 10 steps.');
    expect(reflection.text).toContain('web_search: timeout after 5000 ms');
    expect(reflection.text).toContain('Unreadable replies: 1');
    expect(reflection.text).toMatch(/Next time/);
  });
});
