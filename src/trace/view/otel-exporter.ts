import type { Span, Tracer } from '@opentelemetry/api';
import { type AgentEvent, requireOptional } from '../../core/index.js';
import { workflowSpans } from './workflow-spans.js';

/** The OpenTelemetry API, an optional peer: it loads with the first exporter (the app that passes a tracer has it). */
function otel(): typeof import('@opentelemetry/api') {
  return requireOptional<typeof import('@opentelemetry/api')>('otel', '@opentelemetry/api');
}

export interface OtelExporterOptions {
  /** Put input, output, thoughts and tool results on spans. Off by default: they may hold personal data. */
  captureContent?: boolean;
}

/** An `onEvent` subscriber that turns events into spans; `close()` ends any span still open. */
export interface OtelExporter {
  (event: AgentEvent): void;
  close(endTs?: number): void;
}

interface RunSpans {
  run: Span;
  step?: Span;
  model?: Span;
  tools: Map<string, Span>;
}

/**
 * Turns the agent's events into OpenTelemetry spans as they happen: `thinkflow.run` > `thinkflow.step`
 * > `chat MODEL` (model call, with `gen_ai.*` usage attributes) and `execute_tool NAME` (tool call),
 * timed by the events' own timestamps. A child run (`parentRunId`) nests under its caller's open tool
 * call. Warnings, invalid replies and cache hits become span events. A workflow pass is a
 * `thinkflow.workflow` span with a `thinkflow.workflow.step STEP_ID` span per step (several open at
 * once when steps run in parallel); an agent step's run nests under its step's span.
 *
 * @example
 * const exporter = otelExporter(trace.getTracer('my-app'));
 * await agent.run(input, { onEvent: exporter });
 */
export function otelExporter(tracer: Tracer, options: OtelExporterOptions = {}): OtelExporter {
  otel(); // fail at setup, not at the first event, when the API is missing
  const runs = new Map<string, RunSpans>();
  const content = (value: string) => (options.captureContent ? { value } : undefined);
  const start = (
    name: string,
    parent: Span | undefined,
    ts: number,
    attributes: Record<string, string | number | boolean>,
  ) =>
    tracer.startSpan(
      name,
      { startTime: at(ts), attributes },
      parent ? otel().trace.setSpan(otel().context.active(), parent) : otel().context.active(),
    );

  const workflows = workflowSpans({
    start,
    codes: otel().SpanStatusCode,
    captureContent: options.captureContent === true,
    // An agent step's run (id `<workflow run>:<path>`) still open when its workflow ends ends with it.
    endRunsOf: (workflowRunId, ts) => {
      for (const [id, spans] of [...runs].reverse()) {
        if (!id.startsWith(`${workflowRunId}:`)) continue;
        endOpen(spans, ts);
        spans.run.end(at(ts));
        runs.delete(id);
      }
    },
  });

  const exporter = (event: AgentEvent): void => {
    if (workflows.handle(event)) return;
    const spans = runs.get(event.runId);
    switch (event.type) {
      case 'run_start': {
        const parent = event.parentRunId ? runs.get(event.parentRunId) : undefined;
        const parentSpan = parent
          ? ([...parent.tools.values()].at(-1) ?? parent.step ?? parent.run)
          : event.parentRunId
            ? workflows.stepSpanOf(event.runId, event.parentRunId)
            : undefined;
        const run = start('thinkflow.run', parentSpan, event.ts, {
          'thinkflow.run_id': event.runId,
          'thinkflow.model': event.model,
          'thinkflow.protocol': event.protocol,
          'thinkflow.tools': event.tools.join(','),
          ...(event.agent ? { 'gen_ai.agent.name': event.agent } : {}),
        });
        const input = content(event.input);
        if (input) run.setAttribute('thinkflow.input', input.value);
        runs.set(event.runId, { run, tools: new Map() });
        return;
      }
      case 'step_start': {
        if (!spans) return;
        spans.step?.end(at(event.ts));
        spans.step = start('thinkflow.step', spans.run, event.ts, { 'thinkflow.step': event.step });
        return;
      }
      case 'model_request': {
        if (!spans) return;
        spans.model?.end(at(event.ts));
        spans.model = start(`chat ${event.model}`, spans.step ?? spans.run, event.ts, {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': event.model,
          'thinkflow.step': event.step,
          'thinkflow.messages': event.messages.length,
        });
        return;
      }
      case 'model_response': {
        if (!spans) return;
        const span =
          spans.model ?? start('chat', spans.step ?? spans.run, event.ts - event.ms, { 'thinkflow.step': event.step });
        span.setAttributes({
          'gen_ai.usage.input_tokens': event.usage?.promptTokens ?? 0,
          'gen_ai.usage.output_tokens': event.usage?.completionTokens ?? 0,
          'thinkflow.tool_calls': event.toolCalls?.length ?? 0,
          'thinkflow.cached': event.cached === true,
          ...(event.modelId ? { 'gen_ai.response.model': event.modelId } : {}),
        });
        const text = content(event.text);
        if (text) span.setAttribute('thinkflow.reply', text.value);
        span.end(at(event.ts));
        spans.model = undefined;
        return;
      }
      case 'tool_start': {
        if (!spans) return;
        const span = start(`execute_tool ${event.tool}`, spans.step ?? spans.run, event.ts, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': event.tool,
          'gen_ai.tool.call.id': event.callId,
          'thinkflow.step': event.step,
        });
        spans.tools.set(event.callId, span);
        return;
      }
      case 'tool_end': {
        if (!spans) return;
        const span =
          spans.tools.get(event.callId) ??
          start(`execute_tool ${event.tool}`, spans.step ?? spans.run, event.ts - event.ms, {});
        spans.tools.delete(event.callId);
        span.setAttribute('thinkflow.tool.ok', event.ok);
        const output = content(event.output);
        if (output) span.setAttribute('thinkflow.tool.output', output.value);
        if (!event.ok) span.setStatus({ code: otel().SpanStatusCode.ERROR, message: event.error ?? 'tool failed' });
        span.end(at(event.ts));
        return;
      }
      case 'run_end': {
        if (!spans) return;
        endOpen(spans, event.ts);
        const { run } = spans;
        run.setAttributes({
          'thinkflow.status': event.status,
          'gen_ai.usage.input_tokens': event.usage.promptTokens,
          'gen_ai.usage.output_tokens': event.usage.completionTokens,
          'thinkflow.llm_calls': event.usage.llmCalls,
          ...(event.usage.costUsd === undefined ? {} : { 'thinkflow.cost_usd': event.usage.costUsd }),
        });
        const output = content(event.output);
        if (output) run.setAttribute('thinkflow.output', output.value);
        if (event.status === 'done') run.setStatus({ code: otel().SpanStatusCode.OK });
        else run.setStatus({ code: otel().SpanStatusCode.ERROR, message: event.error?.message ?? event.status });
        run.end(at(event.ts));
        runs.delete(event.runId);
        return;
      }
      case 'model_delta':
      case 'reasoning_delta':
        return;
      default: {
        if (!spans) return;
        const target = spans.step ?? spans.run;
        const { type, runId: _r, parentRunId: _p, ts, ...rest } = event;
        const attributes: Record<string, string | number | boolean> = {};
        for (const [key, value] of Object.entries(rest)) {
          if (typeof value === 'number' || typeof value === 'boolean') attributes[`thinkflow.${key}`] = value;
          else if (typeof value === 'string' && (options.captureContent || key === 'code' || key === 'reason')) {
            attributes[`thinkflow.${key}`] = value;
          }
        }
        target.addEvent(type, attributes, at(ts));
      }
    }
  };

  exporter.close = (endTs = Date.now()) => {
    for (const spans of [...runs.values()].reverse()) {
      endOpen(spans, endTs);
      spans.run.end(at(endTs));
    }
    runs.clear();
    workflows.close(endTs);
  };
  return exporter;
}

/** Epoch milliseconds as a Date: the SDK would read a small number as an offset from process start. */
function at(ts: number): Date {
  return new Date(ts);
}

function endOpen(spans: RunSpans, ts: number): void {
  for (const span of spans.tools.values()) span.end(at(ts));
  spans.tools.clear();
  spans.model?.end(at(ts));
  spans.model = undefined;
  spans.step?.end(at(ts));
  spans.step = undefined;
}

/**
 * Exports a finished trace (for example one read with `readTrace`) as spans, timed by its events.
 *
 * @example
 * eventsToSpans(readTrace('run.jsonl'), trace.getTracer('thinkflow'));
 */
export function eventsToSpans(events: readonly AgentEvent[], tracer: Tracer, options: OtelExporterOptions = {}): void {
  const exporter = otelExporter(tracer, options);
  for (const event of events) exporter(event);
  exporter.close(events.at(-1)?.ts);
}
