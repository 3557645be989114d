import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/core/index.js';
import { reactProtocol } from '../../../src/protocols/index.js';

function step(over: Partial<Step>): Step {
  return { index: 0, kind: 'tool_calls', raw: '', toolCalls: [], ...over };
}

describe('reactProtocol', () => {
  it('reads an action as one tool call with a stable generated id', () => {
    const response = { text: 'Thought: t\nAction: search\nAction Input: {"q": "x"}' };
    const reply = reactProtocol.readReply(response);
    expect(reply).toMatchObject({ type: 'tool_calls', thought: 't', calls: [{ name: 'search', input: { q: 'x' } }] });
    expect(reactProtocol.readReply(response)).toEqual(reply);
    const other = reactProtocol.readReply({ text: 'Action: search\nAction Input: y' });
    if (reply.type === 'tool_calls' && other.type === 'tool_calls')
      expect(other.calls[0].id).not.toBe(reply.calls[0].id);
  });

  it('passes the repaired flag through', () => {
    expect(reactProtocol.readReply({ text: "Action: a\nAction Input: {'k': 1}" })).toMatchObject({ repaired: true });
  });

  it('reads a final answer and an invalid reply', () => {
    expect(reactProtocol.readReply({ text: 'Final Answer: 4' })).toEqual({ type: 'final', answer: '4' });
    expect(reactProtocol.readReply({ text: 'Thought: only' })).toMatchObject({ type: 'invalid', raw: 'Thought: only' });
  });

  it('honours native tool calls a server extracted anyway', () => {
    const reply = reactProtocol.readReply({ text: '', toolCalls: [{ id: 'x1', name: 'a', arguments: '{}' }] });
    expect(reply).toEqual({ type: 'tool_calls', calls: [{ id: 'x1', name: 'a', input: {} }] });
  });

  it('sends no tools field', () => {
    expect(
      reactProtocol.requestTools({ tools: [{ name: 'a', description: 'b', parameters: {} }], language: 'en' }),
    ).toBeUndefined();
  });

  it('records a tool step as the reply and an Observation message', () => {
    const messages = reactProtocol.stepMessages(
      step({
        raw: 'Action: search\nAction Input: x',
        toolCalls: [{ id: 'c', name: 'search', input: 'x', output: 'result', ok: true, durationMs: 1 }],
      }),
      'en',
    );
    expect(messages).toEqual([
      { role: 'assistant', content: 'Action: search\nAction Input: x' },
      { role: 'user', content: 'Observation: result' },
    ]);
  });

  it('uses 观察 in Chinese and the loop-provided observation text when there is one', () => {
    const messages = reactProtocol.stepMessages(step({ raw: '行动：a\n行动输入：x', observation: '结果' }), 'zh');
    expect(messages[1]).toEqual({ role: 'user', content: '观察：结果' });
  });

  it('drops an observation the model invented from the recorded reply', () => {
    const messages = reactProtocol.stepMessages(
      step({ raw: 'Action: search\nAction Input: x\nObservation: fake\nFinal Answer: fake', observation: 'real' }),
      'en',
    );
    expect(messages[0].content).toBe('Action: search\nAction Input: x');
    expect(messages[1].content).toBe('Observation: real');
  });

  it('records an invalid step with the correction', () => {
    const messages = reactProtocol.stepMessages(
      step({ kind: 'invalid', raw: 'Thought: x', invalidReason: 'No action.' }),
      'en',
    );
    expect(messages[1]).toEqual({ role: 'user', content: reactProtocol.correction('No action.', 'en') });
    expect(messages[1].content).toContain('No action.');
    expect(messages[1].content).toContain('Final Answer:');
  });

  it('writes the correction and the final-answer request with the keywords of the language', () => {
    expect(reactProtocol.correction('r', 'zh')).toContain('最终答案');
    expect(reactProtocol.finalAnswerRequest('en')).toContain('Final Answer:');
    expect(reactProtocol.finalAnswerRequest('zh')).toContain('最终答案');
  });
});

describe('text protocol stop sequences', () => {
  it('stop the model before it writes an observation itself, in either language', () => {
    expect(reactProtocol.stop?.('en')).toEqual(['\nObservation:', '\n观察：']);
  });
});
