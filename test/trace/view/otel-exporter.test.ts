import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/index.js';
import { eventsToSpans, otelExporter } from '../../../src/trace/view/otel-exporter.js';
import { sampleTrace } from '../sample-trace.js';

function setup() {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  return { memory, tracer: provider.getTracer('thinkflow-test') };
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('eventsToSpans', () => {
  it('makes run > step > model call and tool call spans with usage attributes', () => {
    const { memory, tracer } = setup();
    eventsToSpans(sampleTrace(), tracer);
    const spans = memory.getFinishedSpans();
    const [run] = byName(spans, 'thinkflow.run');
    const steps = byName(spans, 'thinkflow.step');
    const models = byName(spans, 'chat openai:gpt-4o-mini');
    const [tool] = byName(spans, 'execute_tool calculator');
    expect(spans).toHaveLength(1 + 2 + 2 + 1);
    expect(steps).toHaveLength(2);
    expect(models).toHaveLength(2);
    expect(parentOf(run)).toBeUndefined();
    for (const step of steps) expect(parentOf(step)).toBe(run.spanContext().spanId);
    expect(parentOf(models[0])).toBe(steps[0].spanContext().spanId);
    expect(parentOf(tool)).toBe(steps[0].spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(models[0].attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 30 });
    expect(tool.attributes).toMatchObject({ 'gen_ai.tool.name': 'calculator', 'thinkflow.tool.ok': true });
    expect(run.attributes).toMatchObject({
      'thinkflow.status': 'done',
      'thinkflow.llm_calls': 2,
      'thinkflow.model': 'openai:gpt-4o-mini',
    });
    expect(run.status.code).toBe(SpanStatusCode.OK);
  });

  it('times spans by the events, not the clock', () => {
    const { memory, tracer } = setup();
    eventsToSpans(sampleTrace(), tracer);
    const [tool] = byName(memory.getFinishedSpans(), 'execute_tool calculator');
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(ms(tool.startTime)).toBe(1252);
    expect(ms(tool.endTime)).toBe(1270);
  });

  it('leaves content off spans unless captureContent is set', () => {
    const plain = setup();
    eventsToSpans(sampleTrace(), plain.tracer);
    const [run] = byName(plain.memory.getFinishedSpans(), 'thinkflow.run');
    expect(run.attributes['thinkflow.input']).toBeUndefined();
    const rich = setup();
    eventsToSpans(sampleTrace(), rich.tracer, { captureContent: true });
    const [richRun] = byName(rich.memory.getFinishedSpans(), 'thinkflow.run');
    expect(richRun.attributes).toMatchObject({
      'thinkflow.input': 'What is 2+2?',
      'thinkflow.output': 'The answer is 4.',
    });
  });

  it('marks failed tools and failed runs as errors, and notes warnings as span events', () => {
    const { memory, tracer } = setup();
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
        error: 'bad expression',
      },
      { runId: 'run-1', ts: 1261, type: 'warning', step: 1, code: 'repeated_call', message: 'again' },
      {
        runId: 'run-1',
        ts: 1300,
        type: 'run_end',
        status: 'failed',
        output: '',
        usage: { promptTokens: 1, completionTokens: 1, llmCalls: 1 },
        durationMs: 300,
        error: { code: 'x', message: 'gave up' },
      },
    ];
    eventsToSpans(events, tracer);
    const spans = memory.getFinishedSpans();
    const [tool] = byName(spans, 'execute_tool calculator');
    const [run] = byName(spans, 'thinkflow.run');
    const [step] = byName(spans, 'thinkflow.step');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad expression' });
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: 'gave up' });
    const warning = step.events.find((e) => e.name === 'warning');
    expect(warning?.attributes).toMatchObject({ 'thinkflow.code': 'repeated_call' });
    expect(step.events.map((e) => e.name)).toEqual(['thought', 'warning']);
  });

  it('nests a child run under the caller tool span, and close() ends an unfinished run', () => {
    const { memory, tracer } = setup();
    const exporter = otelExporter(tracer);
    for (const event of sampleTrace().slice(0, 6)) exporter(event);
    exporter({
      type: 'run_start',
      runId: 'child',
      parentRunId: 'run-1',
      ts: 1253,
      input: 'sub',
      model: 'm',
      protocol: 'json',
      tools: [],
    });
    exporter({
      type: 'run_end',
      runId: 'child',
      ts: 1260,
      status: 'done',
      output: 'ok',
      usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
      durationMs: 7,
    });
    expect(memory.getFinishedSpans().map((s) => s.name)).toEqual(['chat openai:gpt-4o-mini', 'thinkflow.run']);
    exporter.close(2000);
    const spans = memory.getFinishedSpans();
    const [tool] = byName(spans, 'execute_tool calculator');
    const [child, parent] = byName(spans, 'thinkflow.run');
    expect(parentOf(child)).toBe(tool.spanContext().spanId);
    expect(parentOf(parent)).toBeUndefined();
    expect(spans).toHaveLength(5);
  });
});
