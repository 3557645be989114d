import { describe, expect, it } from 'vitest';
import { type AgentEvent, createAnswerReader } from '../../src/index.js';

const at = { runId: 'r', ts: 0 };
type Spec = Record<string, unknown> & { type: AgentEvent['type'] };
const events = (...specs: Spec[]) => specs.map((s) => ({ ...at, step: 0, ...s }) as AgentEvent);
const start = (protocol: string): Spec => ({ type: 'run_start', input: 'q', model: 'm', protocol, tools: [] });
const request: Spec = { type: 'model_request', messages: [] };
const delta = (text: string): Spec => ({ type: 'model_delta', text });

function read(list: AgentEvent[], finalOnly = false) {
  const reader = createAnswerReader({ finalOnly });
  return list.flatMap((e) => reader.read(e));
}
const text = (deltas: { text: string; start: boolean }[]) =>
  deltas.map((d, i) => (d.start && i > 0 ? '\n\n' : '') + d.text).join('');

describe('createAnswerReader', () => {
  it('streams a native answer as it comes', () => {
    const deltas = read(
      events(start('native'), request, delta('The answer to this one '), delta('is 42, as computed.'), {
        type: 'final',
        output: 'The answer to this one is 42, as computed.',
      }),
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(text(deltas)).toBe('The answer to this one is 42, as computed.');
  });

  it('holds back a native reply that is a ReAct action, and sends only the final answer', () => {
    const list = events(
      start('native'),
      request,
      delta('Thought: I need the calculator.\nAction: calculator\nAction Input: {"expression":"1+1"}'),
      { type: 'model_response', text: 'Thought: ...' },
      { type: 'tool_start', callId: 'c', tool: 'calculator', input: {} },
      request,
      delta('Thought: done.\nFinal Answer: 2'),
      { type: 'final', output: '2' },
      { type: 'run_end', status: 'done', output: '2', usage: {}, durationMs: 1 },
    );
    expect(text(read(list))).toBe('2');
  });

  it('sends what a model said before a tool call, even when it did not stream', () => {
    const list = events(
      start('native'),
      request,
      { type: 'model_response', text: 'Let me check.', toolCalls: [{ id: 'c', name: 't', arguments: '{}' }] },
      request,
      { type: 'final', output: 'Done.' },
    );
    expect(read(list)).toEqual([
      { text: 'Let me check.', start: true },
      { text: 'Done.', start: true },
    ]);
  });

  it('stops streaming prose at a ReAct keyword line', () => {
    const list = events(start('native'), request, delta('I will work this out now.\nFinal Answer: 4'), {
      type: 'final',
      output: '4',
    });
    expect(text(read(list))).toBe('I will work this out now.\n\n4');
  });

  it('gives only the whole final answer for structured output, and ignores nested runs', () => {
    const list = [
      ...events(start('native'), request, delta('{"a":'), delta('1}')),
      { ...at, runId: 'child', type: 'final', step: 0, output: 'child answer' } as AgentEvent,
      ...events({ type: 'final', output: '{"a":1}' }),
    ];
    expect(read(list, true)).toEqual([{ text: '{"a":1}', start: true }]);
  });

  it('sends the best answer a run ends with when there was no final', () => {
    const list = events(start('react'), {
      type: 'run_end',
      status: 'max_steps',
      output: 'best guess',
      usage: {},
      durationMs: 1,
    });
    expect(text(read(list))).toBe('best guess');
  });
});
