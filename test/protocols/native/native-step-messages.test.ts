import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/core/index.js';
import { nativeProtocol } from '../../../src/protocols/index.js';

function step(over: Partial<Step>): Step {
  return { index: 0, kind: 'tool_calls', raw: '', toolCalls: [], ...over };
}

const record = (id: string, output: string) => ({
  id,
  name: 'search',
  input: { q: id },
  output,
  ok: true,
  durationMs: 1,
});

describe('nativeProtocol.stepMessages', () => {
  it('records the assistant tool calls, then one tool message per call, in order', () => {
    const messages = nativeProtocol.stepMessages(
      step({
        raw: 'checking',
        rawToolCalls: [
          { id: 'c1', name: 'search', arguments: '{"q":"c1"}' },
          { id: 'c2', name: 'search', arguments: '{"q":"c2"}' },
        ],
        toolCalls: [record('c2', 'two'), record('c1', 'one')],
      }),
      'en',
    );
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: 'checking',
        toolCalls: [
          { id: 'c1', name: 'search', arguments: '{"q":"c1"}' },
          { id: 'c2', name: 'search', arguments: '{"q":"c2"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'search', content: 'one' },
      { role: 'tool', toolCallId: 'c2', name: 'search', content: 'two' },
    ]);
  });

  it('never leaves a call without a result', () => {
    const messages = nativeProtocol.stepMessages(
      step({ rawToolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }], toolCalls: [] }),
      'en',
    );
    expect(messages[1]).toMatchObject({ role: 'tool', toolCallId: 'c1', content: expect.stringContaining('not run') });
  });

  it('rebuilds the calls from the records when they were read out of text', () => {
    const messages = nativeProtocol.stepMessages(
      step({ raw: '<tool_call>…</tool_call>', toolCalls: [record('call_x', 'out')] }),
      'en',
    );
    expect(messages[0]).toEqual({
      role: 'assistant',
      content: '<tool_call>…</tool_call>',
      toolCalls: [{ id: 'call_x', name: 'search', arguments: '{"q":"call_x"}' }],
    });
    expect(messages[1]).toMatchObject({ role: 'tool', toolCallId: 'call_x', content: 'out' });
  });

  it('adds no message between the calls and their results, even with warnings', () => {
    const messages = nativeProtocol.stepMessages(
      step({
        rawToolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }],
        toolCalls: [record('c1', 'x\n[warning] same result 3 times')],
        warnings: ['same result 3 times'],
      }),
      'en',
    );
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(messages[1].content).toContain('[warning] same result 3 times');
  });

  it('appends notes after the results', () => {
    const messages = nativeProtocol.stepMessages(
      step({
        rawToolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }],
        toolCalls: [record('c1', 'x')],
        notes: [{ role: 'user', content: 'Reflection: try another source.' }],
      }),
      'en',
    );
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
  });

  it('records an invalid step as the reply and the correction', () => {
    const messages = nativeProtocol.stepMessages(
      step({ kind: 'invalid', raw: 'junk', invalidReason: 'bad args' }),
      'en',
    );
    expect(messages).toEqual([
      { role: 'assistant', content: 'junk' },
      { role: 'user', content: nativeProtocol.correction('bad args', 'en') },
    ]);
  });

  it('records a final step as the assistant answer', () => {
    expect(nativeProtocol.stepMessages(step({ kind: 'final', raw: 'Paris.', answer: 'Paris.' }), 'en')).toEqual([
      { role: 'assistant', content: 'Paris.' },
    ]);
  });

  it('puts tools in the request and not in the system prompt', () => {
    const tools = [{ name: 'search', description: 'Search the web', parameters: { type: 'object' } }];
    expect(nativeProtocol.requestTools({ tools, language: 'en' })).toEqual(tools);
    expect(nativeProtocol.requestTools({ tools: [], language: 'en' })).toBeUndefined();
    expect(nativeProtocol.systemPrompt({ tools, language: 'en' })).not.toContain('Search the web');
  });

  it('writes the correction and the final-answer request in the prompt language', () => {
    expect(nativeProtocol.correction('x', 'en')).toContain('x');
    expect(nativeProtocol.correction('x', 'zh')).toContain('无法使用');
    expect(nativeProtocol.finalAnswerRequest('en')).toContain('Do not call any more tools');
    expect(nativeProtocol.finalAnswerRequest('zh')).toContain('不要再调用');
  });
});

describe('nativeProtocol.stop', () => {
  it('sets no stop sequences: tool calls end a native reply', () => {
    expect(nativeProtocol.stop).toBeUndefined();
  });
});
