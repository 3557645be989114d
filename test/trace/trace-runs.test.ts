import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/index.js';
import { noError, rescore, traceItems } from '../../src/eval/index.js';
import { Agent, calculatorTool, scriptedModel } from '../../src/index.js';
import { readTrace, renderHtml, renderTimeline, traceRuns } from '../../src/trace/index.js';
import { sampleTrace } from './sample-trace.js';
import { workflowTrace } from './workflow-trace.js';

/** The sample run again under another run id, its answer changed. */
function secondRun(): AgentEvent[] {
  return sampleTrace().map((e) => {
    const event = { ...e, runId: 'run-2', ts: e.ts + 5000 } as AgentEvent;
    if (event.type === 'run_start') return { ...event, input: 'And 3+3?' };
    if (event.type === 'run_end') return { ...event, output: 'The answer is 6.' };
    return event;
  });
}

describe('traceRuns: a trace file holding several runs (--trace appends)', () => {
  it('splits appended runs, each with the runs it started at any depth, in the order they first appear', () => {
    const child = (runId: string, parentRunId: string, ts: number): AgentEvent[] => [
      {
        type: 'run_start',
        runId,
        parentRunId,
        ts,
        input: 'sub',
        model: 'm',
        protocol: 'native',
        tools: [],
      },
      {
        type: 'run_end',
        runId,
        parentRunId,
        ts: ts + 1,
        status: 'done',
        output: 'ok',
        usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
        durationMs: 1,
      },
    ];
    const [start, ...rest] = sampleTrace();
    const first = [start, ...child('run-1/a', 'run-1', 1001), ...child('run-1/a/b', 'run-1/a', 1002), ...rest];
    const runs = traceRuns([...first, ...secondRun()]);
    expect(runs.map((run) => run.length)).toEqual([first.length, secondRun().length]);
    expect(new Set(runs[0].map((e) => e.runId))).toEqual(new Set(['run-1', 'run-1/a', 'run-1/a/b']));
    expect(traceRuns(sampleTrace())).toEqual([sampleTrace()]);
    expect(traceRuns([])).toEqual([]);
  });

  it('keeps every pass of a resumed workflow, and its agent steps, as one run', async () => {
    const { events } = await workflowTrace();
    expect(events.filter((e) => e.type === 'workflow_start').length).toBeGreaterThan(1);
    expect(traceRuns(events)).toEqual([events]);
    const runs = traceRuns([...events, ...sampleTrace()]);
    expect(runs).toHaveLength(2);
    expect(renderTimeline(runs[0])).toBe(renderTimeline(events));
  });

  it('shows each run of the file in the timeline and the HTML report, with ids of its own', () => {
    const both = [...sampleTrace(), ...secondRun()];
    const text = renderTimeline(both);
    expect(text).toContain('── run 1 of 2 ──');
    expect(text).toContain('── run 2 of 2 ──');
    expect(text).toContain('output The answer is 4.');
    expect(text).toContain('output The answer is 6.');
    const html = renderHtml(both);
    expect(html.match(/<section class="run">/g)).toHaveLength(2);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toContain('r2-status');
    expect(ids).toContain('step-r2-1');
    expect(new Set(ids).size).toBe(ids.length);
    // One run: the page as before.
    expect(renderHtml(sampleTrace())).toContain('<details class="step" id="step-1">');
  });

  it('gives each workflow run of a page ids of its own too, each timeline row naming its own section', async () => {
    const [first, second] = [await workflowTrace(), await workflowTrace()];
    const html = renderHtml([...first.events, ...second.events]);
    expect(html.match(/<section class="run">/g)).toHaveLength(2);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(expect.arrayContaining(['r1-status', 'r2-status', 'step-r1-w0', 'step-r2-w0']));
    expect(new Set(ids).size).toBe(ids.length);
    // The page's script opens `step-` + a row's data-step: every row names a section of the page.
    const rows = [...html.matchAll(/ data-step="([^"]+)"/g)].map((m) => `step-${m[1]}`);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(ids).toContain(row);
  });

  it('rescores each run of a file that --trace appended two runs to (traceItems), named file#n', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-runs-'));
    const file = join(dir, 'both.jsonl');
    const model = scriptedModel([
      { text: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"1+1"}' }] },
      'Two.',
      'Just text.',
    ]);
    const agent = new Agent({ model, tools: [calculatorTool], traceFile: file, streaming: false });
    await agent.run('What is 1+1?');
    await agent.run('Say something.');
    expect(traceRuns(readTrace(file))).toHaveLength(2);
    const items = [...traceItems([file])];
    expect(items.map((i) => [i.id, i.input, i.run.output, i.run.steps.length])).toEqual([
      [`${file}#1`, 'What is 1+1?', 'Two.', 2],
      [`${file}#2`, 'Say something.', 'Just text.', 1],
    ]);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect([...traceItems([empty])]).toEqual([]);
    const scored = [];
    for await (const r of rescore(traceItems([file]), [noError()])) scored.push(r.id);
    expect(scored).toEqual([`${file}#1`, `${file}#2`]);
  });
});
