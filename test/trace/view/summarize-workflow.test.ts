import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStep, createWorkflow, memoryWorkflowStore } from '../../../src/entries/workflow.js';
import type { AgentEvent } from '../../../src/index.js';
import { summarizeWorkflowTrace } from '../../../src/trace/index.js';
import { sampleTrace } from '../sample-trace.js';
import { workflowTrace } from '../workflow-trace.js';

const byPath = (summary: ReturnType<typeof summarizeWorkflowTrace>, path: string) =>
  summary?.steps.find((s) => s.path === path);

describe('summarizeWorkflowTrace', () => {
  it('folds both passes of a resumed run into its steps by path, in path order', async () => {
    const { events, runId } = await workflowTrace();
    const summary = summarizeWorkflowTrace(events);
    expect(summary).toMatchObject({ runId, workflow: 'triage', status: 'done', input: 'The site is down' });
    expect(summary?.passes.map((p) => [p.start.resumed ?? false, p.end?.status])).toEqual([
      [false, 'suspended'],
      [true, 'done'],
    ]);
    expect(summary?.steps.map((s) => `${s.path} ${s.kind} ${s.status}`)).toEqual([
      '0.classify step done',
      '1.lookup step done',
      '1.draft agent done',
      '2.review step done',
      '3.notify workflow done',
      '3.notify/0.channels step done',
      '3.notify/1.send[0] step done',
      '3.notify/1.send[1] step done',
      '3.notify/1.send[2] step done',
    ]);
    expect(summary?.output).toEqual(['sent to email', 'sent to chat', 'sent to pager']);
    expect(byPath(summary, '3.notify/1.send[2]')).toMatchObject({ depth: 1, pass: 1, output: 'sent to pager' });
  });

  it('keeps a resumed step’s suspend payload and marks it resumed', async () => {
    const { events } = await workflowTrace();
    const review = byPath(summarizeWorkflowTrace(events), '2.review');
    expect(review).toMatchObject({
      status: 'done',
      resumed: true,
      pass: 1,
      payload: { draft: 'We are on it: 42 engineers.', page: 'runbook/outage' },
      output: 'We are on it: 42 engineers.',
    });
  });

  it('shows parallel steps overlapping in time', async () => {
    const { events } = await workflowTrace();
    const summary = summarizeWorkflowTrace(events);
    const lookup = byPath(summary, '1.lookup')!;
    const draft = byPath(summary, '1.draft')!;
    // lookup waits 30 ms on a timer; draft starts in the same tick, before it ends.
    expect(draft.startTs).toBeLessThan(lookup.endTs!);
    expect(lookup.startTs).toBeLessThanOrEqual(draft.startTs);
    // The step's own duration and its events' timestamps are separate clock reads: they agree to the millisecond.
    expect(Math.abs(lookup.ms! - (lookup.endTs! - lookup.startTs))).toBeLessThanOrEqual(1);
  });

  it('folds an agent step’s own run under it, and takes the usage from the last workflow_end', async () => {
    const { events, runId } = await workflowTrace();
    const summary = summarizeWorkflowTrace(events)!;
    const agent = byPath(summary, '1.draft')?.agent;
    expect(agent?.start).toMatchObject({ runId: `${runId}:1.draft`, parentRunId: runId });
    expect(agent?.end?.status).toBe('done');
    expect(agent?.steps).toHaveLength(2);
    expect(agent?.steps[0]?.tools.map((t) => [t.tool, t.output])).toEqual([['calculator', '42']]);
    expect(agent?.usage).toMatchObject({ promptTokens: 100, completionTokens: 20, llmCalls: 2 });
    expect(summary.usage).toMatchObject({ promptTokens: 100, completionTokens: 20, llmCalls: 2 });
    const passes = summary.passes.map((p) => p.end!.durationMs);
    expect(summary.durationMs).toBe(passes[0]! + passes[1]!);
  });

  it('a first pass alone is suspended at the step that waits, with its payload', async () => {
    const { firstPass } = await workflowTrace();
    const summary = summarizeWorkflowTrace(firstPass)!;
    expect(summary.status).toBe('suspended');
    expect(byPath(summary, '2.review')).toMatchObject({ status: 'suspended', payload: { page: 'runbook/outage' } });
    expect(byPath(summary, '3.notify')).toBeUndefined();
  });

  it('a failed step is failed with its error, its nested workflow too, and the run ends failed', async () => {
    const { events } = await workflowTrace({ failChannel: 'chat' });
    const summary = summarizeWorkflowTrace(events)!;
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatchObject({ code: 'step_failed', message: 'chat gateway refused the message' });
    expect(byPath(summary, '3.notify/1.send[1]')).toMatchObject({
      status: 'failed',
      error: 'chat gateway refused the message',
    });
    expect(byPath(summary, '3.notify/1.send[2]')?.status).toBe('done');
    expect(byPath(summary, '3.notify')?.status).toBe('failed');
  });

  it('a trace cut off mid-run leaves the run and its open steps running', async () => {
    const { events } = await workflowTrace();
    const cut = events.slice(
      0,
      events.findIndex((e) => e.type === 'step_end' && e.path === '1.draft'),
    );
    const summary = summarizeWorkflowTrace(cut)!;
    expect(summary.status).toBe('running');
    const lookup = byPath(summary, '1.lookup');
    expect(lookup?.status).toBe('running');
    expect([lookup?.endTs, lookup?.ms]).toEqual([undefined, undefined]);
    expect(byPath(summary, '1.draft')?.agent?.end?.status).toBe('done');
  });

  it('a waitForEvent is suspended until a later pass goes past it', async () => {
    const store = memoryWorkflowStore();
    const add = createStep({ id: 'add', input: z.number(), output: z.number(), run: (n) => n + 1 });
    const flow = createWorkflow({ id: 'orders', input: z.number(), output: z.number() })
      .then(add)
      .waitForEvent('paid', z.object({ amount: z.number() }))
      .then(
        createStep({ id: 'total', input: z.object({ amount: z.number() }), output: z.number(), run: (p) => p.amount }),
      )
      .commit();
    const events: AgentEvent[] = [];
    const onEvent = (e: AgentEvent) => events.push(e);
    const first = await flow.run(1, { store, onEvent });
    const waiting = summarizeWorkflowTrace(events)!;
    expect(byPath(waiting, '1.event')).toMatchObject({
      kind: 'event',
      stepId: 'paid',
      event: 'paid',
      status: 'suspended',
    });
    await flow.resume(first.runId, { event: 'paid', payload: { amount: 10 } }, { store, onEvent });
    const done = summarizeWorkflowTrace(events)!;
    expect(done.status).toBe('done');
    expect(byPath(done, '1.event')).toMatchObject({ status: 'done', resumed: true });
    expect(done.steps.map((s) => s.path)).toEqual(['0.add', '1.event', '2.total']);
  });

  it('is undefined for an agent trace', () => {
    expect(summarizeWorkflowTrace(sampleTrace())).toBeUndefined();
  });
});
