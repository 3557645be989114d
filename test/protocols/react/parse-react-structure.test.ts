import { describe, expect, it } from 'vitest';
import { PLAIN_ANSWER_MAX_CHARS, parseReAct } from '../../../src/protocols/index.js';

describe('parseReAct structure', () => {
  it('reads several Thought/Action blocks as several calls, in order', () => {
    const text = 'Thought: a\nAction: first\nAction Input: 1\nThought: b\nAction: second\nAction Input: 2';
    expect(parseReAct(text)).toEqual({
      type: 'action',
      thought: 'a',
      tool: 'first',
      input: '1',
      calls: [
        { name: 'first', input: '1' },
        { name: 'second', input: '2' },
      ],
    });
  });

  it('ignores a hallucinated Observation and everything after it', () => {
    const text = 'Action: search\nAction Input: cats\nObservation: cats are great\nFinal Answer: cats are great';
    expect(parseReAct(text)).toEqual({ type: 'action', tool: 'search', input: 'cats' });
  });

  it('ignores a Final Answer that follows a hallucinated Observation even without an action', () => {
    const text = 'Thought: hmm\nObservation: made up\nFinal Answer: made up';
    expect(parseReAct(text)).toMatchObject({ type: 'invalid' });
  });

  it('reads past an Observation the reply starts with (the model echoing its input)', () => {
    expect(parseReAct('Observation: 5\nFinal Answer: five')).toEqual({ type: 'final', answer: 'five' });
  });

  it('lets the action win when it comes before the final answer', () => {
    expect(parseReAct('Action: search\nAction Input: x\nFinal Answer: y')).toMatchObject({ type: 'action' });
  });

  it('lets the final answer win when it comes before the action', () => {
    expect(parseReAct('Final Answer: y\nAction: search\nAction Input: x')).toEqual({ type: 'final', answer: 'y' });
  });

  it('keeps a multi-line final answer whole', () => {
    expect(parseReAct('Final Answer: line 1\n\n- line 2\n- line 3')).toEqual({
      type: 'final',
      answer: 'line 1\n\n- line 2\n- line 3',
    });
  });

  it('takes a short plain reply as the final answer', () => {
    expect(parseReAct('  Paris.  ')).toEqual({ type: 'final', answer: 'Paris.' });
  });

  it(`takes a plain reply of exactly ${PLAIN_ANSWER_MAX_CHARS} characters as the answer, and refuses a longer one`, () => {
    expect(parseReAct('a'.repeat(PLAIN_ANSWER_MAX_CHARS))).toMatchObject({ type: 'final' });
    const long = parseReAct('a'.repeat(PLAIN_ANSWER_MAX_CHARS + 1));
    expect(long).toMatchObject({ type: 'invalid' });
    expect(long.type === 'invalid' && long.reason).toContain('Final Answer:');
  });

  it('explains a Thought with no Action or Final Answer', () => {
    const step = parseReAct('Thought: I should think more');
    expect(step).toEqual({
      type: 'invalid',
      reason: expect.stringContaining('no Action and no Final Answer'),
      raw: 'Thought: I should think more',
      quote: 'Thought: I should think more',
      fix: 'Final Answer: <your answer>',
    });
  });

  it('explains an empty reply', () => {
    expect(parseReAct('')).toEqual({ type: 'invalid', reason: expect.stringContaining('empty'), raw: '' });
  });

  it('explains an empty Final Answer and an empty Action', () => {
    expect(parseReAct('Final Answer:   ')).toMatchObject({ type: 'invalid', reason: expect.stringContaining('empty') });
    expect(parseReAct('Action:\nAction Input: x')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('Action is empty'),
    });
  });

  it('asks for the tool name when the Action is a sentence', () => {
    const step = parseReAct('Action: I think I should search the web for this, then answer.\nAction Input: x');
    expect(step).toMatchObject({ type: 'invalid', reason: expect.stringContaining('just a tool name') });
  });

  it('refuses "None" as a tool and says how to answer', () => {
    expect(parseReAct('Action: None')).toMatchObject({
      type: 'invalid',
      reason: expect.stringContaining('Final Answer'),
    });
  });

  it('reads "Action: Final Answer" and "Finish[...]" as the final answer', () => {
    expect(parseReAct('Action: Final Answer\nAction Input: done')).toEqual({ type: 'final', answer: 'done' });
    expect(parseReAct('Action: final_answer\nAction Input: "done"')).toEqual({ type: 'final', answer: 'done' });
    expect(parseReAct('Action: Finish[done]')).toEqual({ type: 'final', answer: 'done' });
  });

  describe('<think> blocks', () => {
    it('removes them before parsing and keeps them as the thought', () => {
      expect(parseReAct('<think>reason</think>\nAction: a\nAction Input: 1')).toEqual({
        type: 'action',
        thought: 'reason',
        tool: 'a',
        input: '1',
      });
    });

    it('ignores keywords written inside the reasoning', () => {
      expect(parseReAct('<think>Final Answer: maybe 3?</think>Final Answer: 4')).toEqual({
        type: 'final',
        thought: 'Final Answer: maybe 3?',
        answer: '4',
      });
    });

    it('reads a reply with only the closing tag (template opened the block)', () => {
      expect(parseReAct('reasoning here</think>Final Answer: 4')).toEqual({
        type: 'final',
        thought: 'reasoning here',
        answer: '4',
      });
    });

    it('explains a reply that is only reasoning', () => {
      expect(parseReAct('<think>still thinking')).toMatchObject({
        type: 'invalid',
        reason: expect.stringContaining('only reasoning'),
      });
    });

    it('joins the reasoning and the Thought', () => {
      expect(parseReAct('<think>a</think>Thought: b\nFinal Answer: c')).toEqual({
        type: 'final',
        thought: 'a\n\nb',
        answer: 'c',
      });
    });
  });

  describe('tags and JSON in a ReAct reply', () => {
    it('reads a <tool_call> tag', () => {
      expect(parseReAct('<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>')).toEqual({
        type: 'action',
        tool: 'a',
        input: { x: 1 },
        habits: ['special_tokens'],
      });
    });

    it('reads a bare JSON action', () => {
      expect(parseReAct('{"action": "a", "action_input": "x"}')).toEqual({ type: 'action', tool: 'a', input: 'x' });
    });

    it('reads a plain reply that merely contains JSON data as the answer', () => {
      expect(parseReAct('The config is {"port": 8080}.')).toEqual({
        type: 'final',
        answer: 'The config is {"port": 8080}.',
      });
    });

    it('explains a <tool_call> tag that names no tool', () => {
      expect(parseReAct('<tool_call>{"arguments": {}}</tool_call>')).toMatchObject({
        type: 'invalid',
        reason: expect.stringContaining('name'),
      });
    });
  });

  it('keeps any unicode intact', () => {
    const text = 'Thought: 🤔 ñ ü 中文 😀\nAction: search\nAction Input: {"q": "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u200b zero-width"}';
    expect(parseReAct(text)).toEqual({
      type: 'action',
      thought: '🤔 ñ ü 中文 😀',
      tool: 'search',
      input: { q: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u200b zero-width' },
    });
  });
});
