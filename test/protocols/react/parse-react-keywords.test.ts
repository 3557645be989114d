import { describe, expect, it } from 'vitest';
import { parseReAct } from '../../../src/protocols/index.js';

const action = { type: 'action', tool: 'search', input: { q: 'x' } };

describe('parseReAct keywords', () => {
  it('reads the canonical format', () => {
    expect(parseReAct('Thought: look it up\nAction: search\nAction Input: {"q": "x"}')).toEqual({
      ...action,
      thought: 'look it up',
    });
  });

  it.each([
    ['upper case', 'THOUGHT: t\nACTION: search\nACTION INPUT: {"q": "x"}'],
    ['lower case', 'thought: t\naction: search\naction input: {"q": "x"}'],
    ['mixed case', 'tHoUgHt: t\nAcTiOn: search\naction INPUT: {"q": "x"}'],
    ['bold keywords', '**Thought:** t\n**Action:** search\n**Action Input:** {"q": "x"}'],
    ['bold outside the colon', '**Thought**: t\n**Action**: search\n**Action Input**: {"q": "x"}'],
    ['italic keywords', '_Thought:_ t\n*Action:* search\n*Action Input:* {"q": "x"}'],
    ['heading keywords', '## Thought:\nt\n## Action:\nsearch\n## Action Input:\n{"q": "x"}'],
    ['bulleted keywords', '- Thought: t\n- Action: search\n- Action Input: {"q": "x"}'],
    ['numbered steps (ReAct paper)', 'Thought 1: t\nAction 1: search\nAction Input 1: {"q": "x"}'],
    ['full-width colons', 'Thought：t\nAction：search\nAction Input：{"q": "x"}'],
    ['space before colon', 'Thought : t\nAction : search\nAction Input : {"q": "x"}'],
    ['underscore spelling', 'Thought: t\nAction: search\nAction_Input: {"q": "x"}'],
    ['quoted lines', '> Thought: t\n> Action: search\n> Action Input: {"q": "x"}'],
  ])('reads %s', (_name, text) => {
    expect(parseReAct(text)).toMatchObject(action);
  });

  it('reads Chinese keywords with full-width colons', () => {
    expect(parseReAct('思考：查一下\n行动：search\n行动输入：{"q": "x"}')).toEqual({ ...action, thought: '查一下' });
  });

  it('reads Chinese keywords with ASCII colons and traditional characters', () => {
    expect(parseReAct('思考: t\n行動: search\n行動輸入: {"q": "x"}')).toMatchObject(action);
  });

  it('reads mixed English and Chinese keywords', () => {
    expect(parseReAct('Thought：t\n行动：search\nAction Input：{"q": "x"}')).toMatchObject(action);
  });

  it('reads the Chinese final answer keywords', () => {
    expect(parseReAct('思考：我知道了\n最终答案：四')).toEqual({ type: 'final', thought: '我知道了', answer: '四' });
    expect(parseReAct('最终回答：五')).toEqual({ type: 'final', answer: '五' });
  });

  it('splits keywords written on one line', () => {
    expect(parseReAct('Thought: t. Action: search Action Input: {"q": "x"}')).toEqual({ ...action, thought: 't.' });
    expect(parseReAct('思考：t。行动：search 行动输入：{"q": "x"}')).toMatchObject(action);
  });

  it('does not split on lower-case words that look like keywords inside a thought', () => {
    const step = parseReAct('Thought: the next action: search the web\nAction: search\nAction Input: {"q": "x"}');
    expect(step).toEqual({ ...action, thought: 'the next action: search the web' });
  });

  it('does not look for keywords inside the action input', () => {
    expect(parseReAct('Action: note\nAction Input: {"text": "Action: none. Final Answer: later"}')).toEqual({
      type: 'action',
      tool: 'note',
      input: { text: 'Action: none. Final Answer: later' },
    });
  });

  it('keeps prose before the first keyword as the thought', () => {
    expect(parseReAct('I will search.\nAction: search\nAction Input: {"q": "x"}')).toEqual({
      ...action,
      thought: 'I will search.',
    });
  });
});
