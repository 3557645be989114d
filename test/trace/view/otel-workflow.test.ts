import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { eventsToSpans, otelExporter } from '../../../src/trace/view/otel-exporter.js';
import { triageWorkflow, workflowTrace } from '../workflow-trace.js';

function setup() {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  return { memory, tracer: provider.getTracer('thinkflow-test') };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

describe('otelExporter on a workflow run', () => {
  it('makes one thinkflow.workflow span per pass, a step span per step under it, the agent run under its step', async () => {
    const { events, runId } = await workflowTrace();
    const { memory, tracer } = setup();
    eventsToSpans(events, tracer);
    const spans = memory.getFinishedSpans();
    const passes = spans.filter((s) => s.name === 'thinkflow.workflow');
    expect(passes).toHaveLength(2);
    const [first, second] = passes.sort((a, b) => ms(a.startTime) - ms(b.startTime));
    for (const pass of passes) expect(parentOf(pass)).toBeUndefined();
    expect(first?.attributes).toMatchObject({
      'thinkflow.workflow': 'triage',
      'thinkflow.run_id': runId,
      'thinkflow.resumed': false,
      'thinkflow.status': 'suspended',
    });
    expect(first?.attributes['thinkflow.definition_hash']).toMatch(/^[0-9a-f]+$/);
    expect(first?.status.code).toBe(SpanStatusCode.UNSET);
    expect(second?.attributes).toMatchObject({
      'thinkflow.resumed': true,
      'thinkflow.status': 'done',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'thinkflow.llm_calls': 2,
    });
    expect(second?.status.code).toBe(SpanStatusCode.OK);

    const steps = spans.filter((s) => s.name.startsWith('thinkflow.workflow.step '));
    const tree = steps
      .map((s) => [s.attributes['thinkflow.workflow.path'], s.name, parentOf(s) === idOf(first) ? 1 : 2])
      .sort((a, b) => `${a[2]}${a[0]}`.localeCompare(`${b[2]}${b[0]}`));
    expect(tree).toEqual([
      ['0.classify', 'thinkflow.workflow.step classify', 1],
      ['1.draft', 'thinkflow.workflow.step draft', 1],
      ['1.lookup', 'thinkflow.workflow.step lookup', 1],
      ['2.review', 'thinkflow.workflow.step review', 1],
      ['2.review', 'thinkflow.workflow.step review', 2],
      ['3.notify/0.channels', 'thinkflow.workflow.step channels', 2],
      ['3.notify/1.send[0]', 'thinkflow.workflow.step send', 2],
      ['3.notify/1.send[1]', 'thinkflow.workflow.step send', 2],
      ['3.notify/1.send[2]', 'thinkflow.workflow.step send', 2],
    ]);
    for (const s of steps.filter((s) => parentOf(s) !== idOf(first))) expect(parentOf(s)).toBe(idOf(second));
    const suspended = steps.find((s) => s.attributes['thinkflow.workflow.suspended'] === true);
    expect(suspended?.attributes['thinkflow.workflow.path']).toBe('2.review');
    expect(parentOf(suspended!)).toBe(idOf(first));

    const draft = steps.find((s) => s.attributes['thinkflow.workflow.path'] === '1.draft')!;
    const lookup = steps.find((s) => s.attributes['thinkflow.workflow.path'] === '1.lookup')!;
    // Parallel: both open at once.
    expect(ms(draft.startTime)).toBeLessThan(ms(lookup.endTime));
    const agentRun = spans.find((s) => s.name === 'thinkflow.run');
    expect(agentRun?.attributes['thinkflow.run_id']).toBe(`${runId}:1.draft`);
    expect(parentOf(agentRun!)).toBe(idOf(draft));
    const agentSteps = spans.filter((s) => s.name === 'thinkflow.step');
    expect(agentSteps).toHaveLength(2);
    for (const s of agentSteps) expect(parentOf(s)).toBe(idOf(agentRun));
    expect(spans.find((s) => s.name === 'execute_tool calculator')).toBeDefined();
    expect(
      new Set(
        [first, ...steps.filter((s) => parentOf(s) === idOf(first)), agentRun].map((s) => s?.spanContext().traceId),
      ).size,
    ).toBe(1);
  });

  it('marks a failed step and the failed run as errors with their message', async () => {
    const { events } = await workflowTrace({ failChannel: 'chat' });
    const { memory, tracer } = setup();
    eventsToSpans(events, tracer);
    const spans = memory.getFinishedSpans();
    const failed = spans.find((s) => s.attributes['thinkflow.workflow.path'] === '3.notify/1.send[1]');
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'chat gateway refused the message' });
    expect(failed?.attributes['thinkflow.workflow.ok']).toBe(false);
    const ok = spans.find((s) => s.attributes['thinkflow.workflow.path'] === '3.notify/1.send[2]');
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    const run = spans.filter((s) => s.name === 'thinkflow.workflow').at(-1);
    expect(run?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'chat gateway refused the message' });
    expect(run?.attributes['thinkflow.status']).toBe('failed');
  });

  it('as the onEvent of a live run, ends every span by the end of the run', async () => {
    const { memory, tracer } = setup();
    const exporter = otelExporter(tracer, { captureContent: true });
    const result = await triageWorkflow().run('The site is down', { onEvent: exporter });
    expect(result.status).toBe('suspended');
    const spans = memory.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(
      [
        'thinkflow.workflow',
        'thinkflow.workflow.step classify',
        'thinkflow.workflow.step lookup',
        'thinkflow.workflow.step draft',
        'thinkflow.workflow.step review',
        'thinkflow.run',
        'thinkflow.step',
        'thinkflow.step',
        'chat scripted',
        'chat scripted',
        'execute_tool calculator',
      ].sort(),
    );
    const review = spans.find((s) => s.name === 'thinkflow.workflow.step review');
    expect(JSON.parse(String(review?.attributes['thinkflow.workflow.payload']))).toMatchObject({
      page: 'runbook/outage',
    });
    const run = spans.find((s) => s.name === 'thinkflow.workflow');
    expect(run?.attributes['thinkflow.input']).toBe('The site is down');
  });

  it('a trace cut off mid-run ends the open step and agent spans at close, under the workflow span', async () => {
    const { events } = await workflowTrace();
    const cut = events.slice(
      0,
      events.findIndex((e) => e.type === 'tool_end'),
    );
    const { memory, tracer } = setup();
    eventsToSpans(cut, tracer);
    const spans = memory.getFinishedSpans();
    const run = spans.find((s) => s.name === 'thinkflow.workflow')!;
    const open = spans.filter((s) =>
      ['thinkflow.workflow.step lookup', 'thinkflow.workflow.step draft'].includes(s.name),
    );
    expect(open).toHaveLength(2);
    for (const s of open) {
      expect(parentOf(s)).toBe(idOf(run));
      expect(ms(s.endTime)).toBe(cut.at(-1)!.ts);
    }
    expect(spans.find((s) => s.name === 'execute_tool calculator')).toBeDefined();
  });
});
