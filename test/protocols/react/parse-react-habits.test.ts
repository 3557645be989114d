import { describe, expect, it } from 'vitest';
import { parseJsonAction, parseReAct } from '../../../src/protocols/index.js';

describe('parseReAct reads through the habits of real models', () => {
  describe('fenced_reply: the whole reply in a code fence', () => {
    it('keeps the closing fence out of a plain-text input and a final answer', () => {
      expect(parseReAct('```\nThought: look\nAction: search\nAction Input: cats\n```')).toEqual({
        type: 'action',
        tool: 'search',
        input: 'cats',
        thought: 'look',
        habits: ['fenced_reply'],
      });
      expect(parseReAct('```text\nThought: done\nFinal Answer: Paris\n```')).toMatchObject({
        type: 'final',
        answer: 'Paris',
        habits: ['fenced_reply'],
      });
    });

    it('leaves a code block inside a final answer alone', () => {
      const reply = 'Final Answer: Run this:\n```bash\nls -la\n```';
      expect(parseReAct(reply)).toEqual({ type: 'final', answer: 'Run this:\n```bash\nls -la\n```' });
    });

    it('unwraps an unclosed fence and one with a fenced JSON input inside', () => {
      expect(parseReAct('```\nAction: search\nAction Input: cats')).toMatchObject({ input: 'cats' });
      const nested = '```\nAction: search\nAction Input:\n```json\n{"q": "cats"}\n```\n```';
      expect(parseReAct(nested)).toMatchObject({ tool: 'search', input: { q: 'cats' } });
    });
  });

  describe('trailing_commentary: an explanation after the input', () => {
    it('takes the first line when a blank line and prose follow', () => {
      expect(parseReAct('Action: search\nAction Input: cats\n\nThis will find pictures of cats.')).toMatchObject({
        input: 'cats',
        habits: ['trailing_commentary'],
      });
    });

    it('drops a prose parenthetical on the input line, and keeps one that is part of the value', () => {
      expect(parseReAct('Action: search\nAction Input: Paris weather (I use the city name)')).toMatchObject({
        input: 'Paris weather',
      });
      expect(parseReAct('Action: calculator\nAction Input: 2 * (3 + 4)')).toMatchObject({ input: '2 * (3 + 4)' });
      expect(parseReAct('Action: search\nAction Input: Jaguar (animal)')).toMatchObject({ input: 'Jaguar (animal)' });
    });

    it('keeps multi-line inputs whose next paragraph is not prose (code, a letter)', () => {
      const code = 'Action: python\nAction Input: import os\n\nprint(os.getcwd())';
      expect(parseReAct(code)).toMatchObject({ input: 'import os\n\nprint(os.getcwd())' });
      const letter = 'Action: send_email\nAction Input: Dear Ann,\n\nThank you for the report on the budget.';
      expect(parseReAct(letter)).toMatchObject({ input: 'Dear Ann,\n\nThank you for the report on the budget.' });
    });

    it('keeps every paragraph of a final answer', () => {
      expect(parseReAct('Final Answer: Paris\n\nIt is the capital of France.')).toMatchObject({
        answer: 'Paris\n\nIt is the capital of France.',
      });
    });
  });

  it('quoted_input: the text inside backticks or quotes', () => {
    for (const quoted of ['`cats`', '```cats```', "'cats'", '"cats"', '“cats”']) {
      expect(parseReAct(`Action: search\nAction Input: ${quoted}`), quoted).toMatchObject({
        input: 'cats',
        habits: ['quoted_input'],
      });
    }
  });

  it('quoted_input: a JSON object in quotes, backticks or single quotes is the object', () => {
    for (const quoted of ['"{"q": "cats"}"', '\'{"q": "cats"}\'', '`{"q": "cats"}`']) {
      expect(parseReAct(`Action: search\nAction Input: ${quoted}`), quoted).toMatchObject({
        input: { q: 'cats' },
        habits: ['quoted_input'],
      });
    }
  });

  describe('decorated_tool_name', () => {
    it('does not let empty parentheses swallow the Action Input line', () => {
      expect(parseReAct('Action: search()\nAction Input: {"q": "cats"}')).toMatchObject({
        tool: 'search',
        input: { q: 'cats' },
        habits: ['decorated_tool_name'],
      });
    });

    it('reads **tool**, `tool` and [tool] as the name', () => {
      for (const name of ['**search**', '`search`', '[search]']) {
        expect(parseReAct(`Action: ${name}\nAction Input: {"q": 1}`), name).toMatchObject({ tool: 'search' });
      }
    });
  });

  describe('foreign_keywords', () => {
    it("reads LlamaIndex's Answer: and the Chinese 答案：", () => {
      expect(parseReAct('Thought: I can answer without tools.\nAnswer: Paris')).toEqual({
        type: 'final',
        answer: 'Paris',
        thought: 'I can answer without tools.',
        habits: ['foreign_keywords'],
      });
      expect(parseReAct('思考：我知道了\n答案：巴黎')).toMatchObject({ type: 'final', answer: '巴黎' });
    });

    it('reads Input: and 输入： as the Action Input', () => {
      expect(parseReAct('Action: search\nInput: cats')).toMatchObject({ tool: 'search', input: 'cats' });
      expect(parseReAct('Action: search\ninput: {"q": "cats"}')).toMatchObject({ input: { q: 'cats' } });
      expect(parseReAct('行动：search\n输入：猫')).toMatchObject({ tool: 'search', input: '猫' });
    });

    it('reads Action: finish with {"answer"} and a multi-line Finish[...] as the text inside', () => {
      expect(parseReAct('Action: finish\nAction Input: {"answer": "Paris"}')).toMatchObject({
        type: 'final',
        answer: 'Paris',
      });
      expect(parseReAct('Action: Finish[Paris\nis the capital]')).toMatchObject({
        type: 'final',
        answer: 'Paris\nis the capital',
      });
    });

    it('does not read an Answer: line as final when a real Action follows', () => {
      expect(parseReAct('Thought: Answer: not yet\nAction: search\nAction Input: x')).toMatchObject({
        type: 'action',
      });
    });
  });

  describe('json_envelope', () => {
    it.each([
      ['{"tool_call": {"name": "search", "arguments": {"q": "cats"}}}'],
      ['{"function": {"name": "search", "arguments": "{\\"q\\": \\"cats\\"}"}}'],
      ['{"function": {"name": "search", "arguments": {"q": "cats"}}}'],
      ['{"name": "search", "parameters": {"q": "cats"}}'],
      ['{"tool": "search", "tool_input": {"q": "cats"}}'],
      ['[{"name": "search", "parameters": {"q": "cats"}}]'],
    ])('%s', (reply) => {
      for (const parse of [parseReAct, parseJsonAction]) {
        expect(parse(reply)).toEqual({
          type: 'action',
          tool: 'search',
          input: { q: 'cats' },
          habits: ['json_envelope'],
        });
      }
    });

    it('does not take a JSON example in the Thought for the action when a real Action follows', () => {
      const reply =
        'Thought: the tool wants {"action": "x", "action_input": {}}.\nAction: search\nAction Input: {"q": "cats"}';
      for (const parse of [parseReAct, parseJsonAction]) {
        expect(parse(reply)).toMatchObject({ type: 'action', tool: 'search', input: { q: 'cats' } });
      }
    });
  });

  describe('structured_input', () => {
    it('keeps an array input an array, and an expression text', () => {
      expect(parseReAct('Action: sum\nAction Input: [1, 2, 3]')).toMatchObject({
        input: [1, 2, 3],
        habits: ['structured_input'],
      });
      expect(parseJsonAction('{"action": "sum", "action_input": [1, 2]}')).toMatchObject({ input: [1, 2] });
      expect(parseReAct('Action: calc\nAction Input: [1, 2] * 3')).toMatchObject({ input: '[1, 2] * 3' });
    });

    it('repairs raw newlines and tabs inside JSON strings', () => {
      expect(parseReAct('Action: write\nAction Input: {"text": "a\nb\tc"}')).toMatchObject({
        input: { text: 'a\nb\tc' },
        repaired: true,
        habits: ['structured_input'],
      });
    });
  });

  describe('special_tokens', () => {
    it('strips chat-template tokens, and ends the reply at an end-of-turn token', () => {
      for (const token of ['<|im_end|>', '<|eot_id|>', '<|end|>', '</s>']) {
        expect(parseReAct(`Final Answer: Paris${token}\nObservation: made up`), token).toEqual({
          type: 'final',
          answer: 'Paris',
          habits: ['special_tokens'],
        });
      }
    });

    it('leaves HTML strikethrough (<s>…</s>) in an answer alone', () => {
      expect(parseReAct('Final Answer: The price is <s>$20</s> $15 today.')).toEqual({
        type: 'final',
        answer: 'The price is <s>$20</s> $15 today.',
      });
    });

    it('reads Kimi, DeepSeek and gpt-oss token-format calls', () => {
      const kimi =
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0<|tool_call_argument_begin|>{"q": "cats"}<|tool_call_end|><|tool_calls_section_end|>';
      const deepseek =
        'Let me look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"q": "cats"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
      const deepseek31 =
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"q": "cats"}<｜tool▁call▁end｜>';
      const harmony = '<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"q": "cats"}<|call|>';
      for (const reply of [kimi, deepseek, deepseek31, harmony]) {
        for (const parse of [parseReAct, parseJsonAction]) {
          expect(parse(reply), reply).toMatchObject({ type: 'action', tool: 'search', input: { q: 'cats' } });
        }
      }
      expect(parseReAct(deepseek)).toMatchObject({ thought: 'Let me look.', habits: ['special_tokens'] });
    });

    it('reads a <tool_call> tag without its closing tag', () => {
      expect(parseReAct('<tool_call>\n{"name": "search", "arguments": {"q": "cats"}}')).toEqual({
        type: 'action',
        tool: 'search',
        input: { q: 'cats' },
        habits: ['special_tokens'],
      });
    });
  });

  describe('no_action', () => {
    it('reads Action: None followed by the answer as the answer', () => {
      for (const none of ['None', 'N/A', 'none', '`None`']) {
        expect(parseReAct(`Thought: I know.\nAction: ${none}\nFinal Answer: Paris`), none).toEqual({
          type: 'final',
          answer: 'Paris',
          thought: 'I know.',
          habits: ['no_action'],
        });
      }
    });

    it('is invalid, with a reason, when no answer follows', () => {
      expect(parseReAct('Thought: I know.\nAction: None')).toMatchObject({
        type: 'invalid',
        reason: expect.stringContaining('not a tool'),
      });
    });
  });

  describe('an action always has a tool name', () => {
    it('is invalid for the fuzz counterexample **Action:**"行动输入：', () => {
      const raw = '**Action:**"行动输入：';
      expect(parseReAct(raw)).toMatchObject({ type: 'invalid', raw, reason: expect.stringContaining('no tool name') });
    });

    it('is invalid for decoration with no name inside', () => {
      for (const raw of [
        'Action: ``\nAction Input: {}',
        'Action: **\nAction Input: x',
        'Action: []\nAction Input: x',
      ]) {
        expect(parseReAct(raw), raw).toMatchObject({ type: 'invalid' });
      }
    });
  });
});

describe('invalid replies carry the model’s own words and the corrected line', () => {
  it('quotes the Action: None line and shows the final-answer line, in the reply’s language', () => {
    expect(parseReAct('Thought: no tool needed.\nAction: None (direct response required)')).toMatchObject({
      type: 'invalid',
      quote: 'Action: None (direct response required)',
      fix: 'Final Answer: <your answer>',
    });
    expect(parseReAct('思考：不需要工具。\n行动：无')).toMatchObject({
      quote: '行动：无',
      fix: '最终答案：<你的答案>',
    });
  });

  it('shows the exact Action and Action Input lines when the input is missing', () => {
    expect(parseReAct('Thought: check the time.\nAction: get_time')).toMatchObject({
      quote: 'Action: get_time',
      fix: 'Action: get_time\nAction Input: {}',
    });
  });
});
