import { describe, expect, it } from 'vitest';
import type { AgentEvent, ReplyHabit } from '../../../src/core/index.js';
import { renderTimeline } from '../../../src/trace/view/render-timeline.js';
import { sampleTrace } from '../sample-trace.js';

describe('renderTimeline', () => {
  it('shows the header, steps, thoughts, tool calls with durations, tokens and the final status', () => {
    const text = renderTimeline(sampleTrace());
    expect(text).toContain('run run-1  model openai:gpt-4o-mini  protocol native');
    expect(text).toContain('input What is 2+2?');
    expect(text).toMatch(/step 1 .*150 tokens/);
    expect(text).toContain('model 248 ms · 120→30 tokens');
    expect(text).toContain('thought I should use the calculator.');
    expect(text).toMatch(/→ calculator \{"expression":"2\+2"\} {2}18 ms/);
    expect(text).toContain('← 4');
    expect(text).toContain('final The answer is 4.');
    expect(text).toContain('done in 402 ms · 2 steps · 2 LLM calls · 280 prompt + 38 completion tokens · $0.0001');
    expect(text.indexOf('step 1')).toBeLessThan(text.indexOf('step 2'));
  });

  it('has no ANSI codes unless colour is asked for', () => {
    expect(renderTimeline(sampleTrace())).not.toMatch(/\u001b\[/);
    expect(renderTimeline(sampleTrace(), { color: true })).toMatch(/\u001b\[/);
  });

  it('shows tool errors, invalid replies, warnings and a failed status', () => {
    const events: AgentEvent[] = [
      ...sampleTrace().slice(0, 6),
      {
        runId: 'run-1',
        ts: 1260,
        type: 'tool_end',
        step: 1,
        callId: 'c1',
        tool: 'calculator',
        ms: 8,
        ok: false,
        output: 'Error',
        error: 'division by zero',
      },
      { runId: 'run-1', ts: 1261, type: 'invalid_output', step: 1, reason: 'no Action line', raw: 'blah' },
      {
        runId: 'run-1',
        ts: 1262,
        type: 'warning',
        step: 1,
        code: 'repeated_call',
        message: 'You called calculator twice.',
      },
      {
        runId: 'run-1',
        ts: 1300,
        type: 'run_end',
        status: 'failed',
        output: '',
        usage: { promptTokens: 1, completionTokens: 1, llmCalls: 1 },
        durationMs: 2500,
        error: { code: 'invalid_replies', message: 'three invalid replies in a row' },
      },
    ];
    const text = renderTimeline(events);
    expect(text).toContain('✗ division by zero');
    expect(text).toContain('invalid no Action line');
    expect(text).toContain('warning repeated_call You called calculator twice.');
    expect(text).toContain('failed in 2.5 s');
    expect(text).toContain('error invalid_replies: three invalid replies in a row');
  });

  it('says so when the run has no run_end', () => {
    expect(renderTimeline(sampleTrace().slice(0, 5))).toContain('the run did not finish');
  });

  it('cuts long text to one line', () => {
    const text = renderTimeline(sampleTrace(), { maxText: 10 });
    expect(text).toContain('input What is 2…');
  });

  it('leaves child-run events out of the parent timeline', () => {
    const child: AgentEvent = {
      runId: 'child',
      parentRunId: 'run-1',
      ts: 1260,
      type: 'thought',
      step: 1,
      text: 'child thinking',
    };
    expect(renderTimeline([...sampleTrace(), child])).not.toContain('child thinking');
  });
});

describe('renderTimeline repaired replies', () => {
  it('names the habit on the step and counts repairs per habit under the status line', () => {
    const trace = sampleTrace();
    const end = trace.length - 1;
    const repaired = (step: number, habits: string[]): AgentEvent => ({
      runId: 'run-1',
      ts: 1250 + step,
      type: 'warning',
      step,
      code: 'reply_repaired',
      message: `Read the reply through: ${habits.join(', ')}.`,
      habits: habits as ReplyHabit[],
    });
    const events = [
      ...trace.slice(0, end),
      repaired(1, ['fenced_reply']),
      repaired(2, ['fenced_reply', 'quoted_input']),
      trace[end],
    ];
    const text = renderTimeline(events);
    expect(text).toContain('  repaired fenced_reply, quoted_input');
    expect(text).toContain('2 replies repaired: fenced_reply ×2, quoted_input ×1');
    expect(renderTimeline(trace)).not.toContain('repaired');
  });
});
