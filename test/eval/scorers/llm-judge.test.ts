import { describe, expect, it } from 'vitest';
import { applyScorer, llmJudge, readVerdict, runExperiment } from '../../../src/eval/index.js';
import { scriptedModel } from '../../../src/index.js';
import { registerPrice } from '../../../src/llm/index.js';

const reply = (text: string) => ({ text, usage: { promptTokens: 1000, completionTokens: 50 } });

describe('llmJudge', () => {
  it('asks at temperature 0 for a structured { reason, score } and normalises the score', async () => {
    const judge = scriptedModel([reply('{"reason": "Correct and polite.", "score": 4}')]);
    const r = await applyScorer(llmJudge({ model: judge, rubric: 'Is the answer correct?' }), {
      input: 'Capital of France?',
      output: 'Paris.',
      expected: 'Paris',
    });
    expect(r).toMatchObject({ score: 0.75, pass: true, reason: '4/5: Correct and polite.', tokens: 1050 });
    const request = judge.calls[0];
    expect(request.temperature).toBe(0);
    expect(request.responseFormat?.name).toBe('judgement');
    expect(request.messages[0].content).toContain('Is the answer correct?');
    expect(JSON.stringify(request.messages[1].content)).toContain('Reference answer:\\nParis');
  });

  it('writes its prompt in Chinese for a Chinese task, and on request', async () => {
    const judge = scriptedModel([reply('{"reason": "回答正确。", "score": 5}'), reply('{"reason":"ok","score":1}')]);
    const scorer = llmJudge({ model: judge, rubric: '回答是否正确？' });
    const r = await applyScorer(scorer, { input: '法国的首都是哪里？', output: '巴黎。' });
    expect(r).toMatchObject({ score: 1, reason: '5/5: 回答正确。' });
    expect(judge.calls[0].messages[0].content).toContain('评分标准');
    await applyScorer(llmJudge({ model: judge, rubric: 'correct?', language: 'zh' }), { input: 'hi', output: 'hello' });
    expect(judge.calls[1].messages[0].content).toContain('评分标准');
  });

  it('counts its own cost apart, and a cached verdict costs nothing and calls no model', async () => {
    registerPrice('scripted-judge', { input: 1, output: 2 });
    const judge = scriptedModel([reply('{"reason":"fine","score":3}')], { id: 'scripted-judge' });
    const experiment = await runExperiment({
      name: 'judged',
      data: [
        { input: 'q', expected: 'a' },
        { input: 'q', expected: 'a' },
      ],
      task: () => 'a',
      scorers: [llmJudge({ model: judge, rubric: 'right?' })],
      concurrency: 1,
    });
    expect(judge.calls).toHaveLength(1);
    expect(experiment.summary.scorerCostUsd).toBeCloseTo(0.0011);
    expect(experiment.summary.costUsd).toBeUndefined();
  });

  it('reads a score written as text: "4", "4/5", full-width "４分"; none at all is still unreadable', () => {
    expect(readVerdict('{"reason":"好","score":"４分"}', 5)).toEqual({ points: 4, reason: '好' });
    expect(readVerdict('{"reason":"ok","score":"4/5"}', 5)).toEqual({ points: 4, reason: 'ok' });
    expect(readVerdict('{"reason":"ok","score":"3"}', 5)).toEqual({ points: 3, reason: 'ok' });
    expect(() => readVerdict('{"reason":"ok","score":"good"}', 5)).toThrow(/no score from 1 to 5/);
    expect(() => readVerdict('{"reason":"ok","score":"7/10"}', 5)).toThrow(/no score from 1 to 5/);
  });

  it('records a reply it cannot read as the scorer error of that case, and the experiment goes on', async () => {
    const judge = scriptedModel([
      reply('I would say it is pretty good!'),
      reply('{"reason":"x","score":9}'),
      reply('```json\n{"score": "2", "reason": "weak"}\n```'),
    ]);
    const scorer = llmJudge({ model: judge, rubric: 'good?', cache: false });
    const experiment = await runExperiment({
      name: 'unreadable',
      data: [{ input: 'a' }, { input: 'b' }, { input: 'c' }],
      task: (i) => String(i),
      scorers: [scorer],
      concurrency: 1,
    });
    expect(experiment.summary.scorers.llmJudge.errors).toBe(2);
    expect(experiment.summary.trials).toBe(3);
    const first = await applyScorer(llmJudge({ model: scriptedModel([reply('no json')]), rubric: 'r' }), {
      input: '',
      output: '',
    });
    expect(first.error).toMatch(/the judge's reply has no score from 1 to 5: "no json"/);
  });
});
