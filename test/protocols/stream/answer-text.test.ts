import { describe, expect, it } from 'vitest';
import { createAnswerReader } from '../../../src/entries/protocols.js';
import type { AgentEvent } from '../../../src/index.js';

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

/** The pieces a reader sends for one model call streamed in `deltas`, then the run's `final` answer. */
function streamed(protocol: string, deltas: string[], output: string, tools: string[] = []) {
  const reader = createAnswerReader();
  const list = events(
    { ...start(protocol), tools },
    request,
    ...deltas.map(delta),
    { type: 'model_response', text: deltas.join('') },
    { type: 'final', output },
  );
  const perEvent = list.map((e) =>
    reader
      .read(e)
      .map((d) => d.text)
      .join(''),
  );
  return { perEvent, pieces: perEvent.filter((p) => p !== ''), text: perEvent.join('') };
}

describe('createAnswerReader streams as the model writes', () => {
  it('native: each delta goes out as it comes, holding only spaces at the end', () => {
    const { perEvent, text } = streamed('native', ['The ', 'answer ', 'is ', '42.'], 'The answer is 42.');
    expect(perEvent.slice(2, 6)).toEqual(['The', ' answer', ' is', ' 42.']);
    expect(text).toBe('The answer is 42.');
  });

  it('native: a keyword line split across deltas holds the reply from its line on', () => {
    const { pieces } = streamed('native', ['Let me think.\nFin', 'al Ans', 'wer: 4'], '4');
    expect(pieces).toEqual(['Let me think.', '4']);
  });

  it('native: a line that starts like a keyword goes out once it cannot be one', () => {
    const { perEvent } = streamed(
      'native',
      ['Two things.\nFin', 'al results ', 'are in.'],
      'Two things.\nFinal results are in.',
    );
    expect(perEvent.slice(2, 5)).toEqual(['Two things.', '\nFinal results', ' are in.']);
  });

  it('native: a <think> block and a call tag never go out', () => {
    expect(streamed('native', ['<thi', 'nk>hmm</think>', 'Hello ', 'there.'], 'Hello there.').pieces).toEqual([
      'Hello',
      ' there.',
    ]);
    const tagged = streamed('native', ['Checking now. <tool', '_call>{"name":"t"}</tool_call>'], 'Checking now.');
    expect(tagged.pieces).toEqual(['Checking now.']);
  });

  it("native: a reply that opens with one of the agent's tools called as text waits until it can be told", () => {
    const called = streamed('native', ['sea', 'rch(', '"x")'], 'search("x")', ['search']);
    expect(called.perEvent.slice(2, 5)).toEqual(['', '', '']);
    const said = streamed('native', ['sea', 'rch results ', 'say yes.'], 'search results say yes.', ['search']);
    expect(said.perEvent.slice(2, 5)).toEqual(['', 'search results', ' say yes.']);
  });

  it("native: a tool-call step's text goes out as it streams, then the answer as a new segment", () => {
    const reader = createAnswerReader();
    const list = events(
      start('native'),
      request,
      delta('Let me '),
      delta('check. '),
      { type: 'model_response', text: 'Let me check. ', toolCalls: [{ id: 'c', name: 't', arguments: '{}' }] },
      request,
      delta('It is '),
      delta('sunny.'),
      { type: 'final', output: 'It is sunny.' },
    );
    expect(list.map((e) => reader.read(e))).toEqual([
      [],
      [],
      [{ text: 'Let me', start: true }],
      [{ text: ' check.', start: false }],
      // The space it held goes with the calls: the step's text, whole, as a non-streamed reply keeps it.
      [{ text: ' ', start: false }],
      [],
      [{ text: 'It is', start: true }],
      [{ text: ' sunny.', start: false }],
      [],
    ]);
  });

  it('react: only what follows the final-answer marker goes out, the marker split across deltas', () => {
    const { perEvent, text } = streamed(
      'react',
      ['Thought: easy.\nFinal Ans', 'wer: The ', 'answer ', 'is 42.'],
      'The answer is 42.',
    );
    expect(perEvent.slice(2, 6)).toEqual(['', 'The', ' answer', ' is 42.']);
    expect(text).toBe('The answer is 42.');
  });

  it('react: Chinese markers, at a line start or inline in a Thought line', () => {
    const zh = streamed('react', ['思考：很简单。\n最终', '答案：北京', '的天气', '是晴天。'], '北京的天气是晴天。');
    expect(zh.perEvent.slice(2, 6)).toEqual(['', '北京', '的天气', '是晴天。']);
    const full = streamed('react', ['想法：知道了。\n最終答案', '：', ' 42'], '42');
    expect(full.pieces).toEqual(['42']);
    const inline = streamed('react', ['Thought: I know it. Final Answer: ', '4', '2'], '42');
    expect(inline.perEvent.slice(2, 5)).toEqual(['', '4', '2']);
  });

  it('react: an Action before the marker, and an invented Observation after the answer, never go out', () => {
    const acted = streamed('react', ['Action: search\nAction Input: x\n', 'Final Answer: 1'], '1');
    expect(acted.perEvent.slice(2, 4)).toEqual(['', '']);
    const invented = streamed('react', ['Final Answer: 42\nObser', 'vation: more'], '42');
    expect(invented.pieces).toEqual(['42']);
  });

  it('json: the answer string goes out decoded as it streams, the envelope never', () => {
    const { perEvent, text } = streamed(
      'json',
      ['{"thought": "done", "action": "final_answer", "action_input": "The ', 'answer \\"is\\" ', '42\\u00', 'b0."}'],
      'The answer "is" 42°.',
    );
    expect(perEvent.slice(2, 6)).toEqual(['The ', 'answer "is" ', '42', '°.']);
    expect(text).toBe('The answer "is" 42°.');
    expect(streamed('json', ['{"final_answer": "Par', 'is"}'], 'Paris').pieces).toEqual(['Par', 'is']);
  });

  it("json: a tool's input, and an answer key before its action, wait for the final answer", () => {
    const tool = streamed('json', ['{"action": "search", "action_input": "the ', 'weather"}'], 'x');
    expect(tool.perEvent.slice(2, 4)).toEqual(['', '']);
    const late = streamed('json', ['{"action_input": "Paris", ', '"action": "final_answer"}'], 'Paris');
    expect(late.perEvent.slice(2, 4)).toEqual(['', '']);
    expect(late.text).toBe('Paris');
  });

  it('json: a reply written as ReAct is read as ReAct', () => {
    expect(streamed('json', ['Thought: ok.\nFinal Answer: ', 'Paris'], 'Paris').pieces).toEqual(['Paris']);
  });

  it('a protocol it does not know sends the answer whole at final', () => {
    expect(streamed('custom', ['Hello ', 'there.'], 'Hello there.').pieces).toEqual(['Hello there.']);
  });
});

describe('createAnswerReader streams the answers the ReAct parser reads from one line', () => {
  const streamed = (...pieces: string[]) =>
    read(events(start('react'), request, ...pieces.map(delta)))
      .map((d) => d.text)
      .join('');

  it('starts at a numbered or bold inline final-answer marker, English and Chinese', () => {
    expect(streamed('Thought 3: I know it. Final Answer 3: ', '42 apples')).toBe('42 apples');
    expect(streamed('**思考：** 好了。 **最终答案：** ', '四十二')).toBe('四十二');
  });
});
