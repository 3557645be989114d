import type { Span, SpanStatusCode } from '@opentelemetry/api';
import type { AgentEvent } from '../../core/index.js';

/** What the OpenTelemetry exporter lends the workflow spans: how to start a span, and how to end the agent runs inside. */
export interface WorkflowSpanKit {
  start(
    name: string,
    parent: Span | undefined,
    ts: number,
    attributes: Record<string, string | number | boolean>,
  ): Span;
  /** The API's status codes (the API is an optional peer, loaded by the exporter). */
  codes: typeof SpanStatusCode;
  captureContent: boolean;
  /** Ends the spans of the agent runs still open inside a workflow run. */
  endRunsOf(workflowRunId: string, ts: number): void;
}

/** The spans of the workflow runs in flight, fed every event before the agent spans see it. */
export interface WorkflowSpans {
  /** Takes a workflow run's own event (and `workflow_start`); false for the events of agent runs. */
  handle(event: AgentEvent): boolean;
  /** The span an agent step's run nests under: its step's, found by its run id `<workflow run>:<path>`. */
  stepSpanOf(runId: string, parentRunId: string): Span | undefined;
  close(ts: number): void;
}

/** A workflow pass: its span, and its steps' spans by path (parallel steps are open together). */
interface Pass {
  runId: string;
  span: Span;
  steps: Map<string, Span>;
}

/**
 * Workflow events as spans: `workflow_start` opens `thinkflow.workflow` (one per pass: a resume is a
 * new span with `thinkflow.resumed`), each step a `thinkflow.workflow.step STEP_ID` span under it,
 * ended by `step_end` (an error status when it failed) or `step_suspended`, and `workflow_end` ends
 * whatever is still open with the run's status and usage.
 */
export function workflowSpans(kit: WorkflowSpanKit): WorkflowSpans {
  const passes = new Map<string, Pass>();
  const content = (value: unknown) => (kit.captureContent ? json(value) : undefined);
  const stepSpan = (pass: Pass, event: { stepId: string; path: string }, ts: number) =>
    kit.start(`thinkflow.workflow.step ${event.stepId}`, pass.span, ts, {
      'thinkflow.workflow.step_id': event.stepId,
      'thinkflow.workflow.path': event.path,
    });
  const end = (pass: Pass, ts: number) => {
    kit.endRunsOf(pass.runId, ts);
    for (const span of pass.steps.values()) span.end(at(ts));
    pass.steps.clear();
    pass.span.end(at(ts));
    passes.delete(pass.runId);
  };

  const handle = (event: AgentEvent): boolean => {
    const pass = passes.get(event.runId);
    if (event.type === 'workflow_start') {
      // A pass that never ended (its process died) ends where the next one starts.
      if (pass) end(pass, event.ts);
      const span = kit.start('thinkflow.workflow', undefined, event.ts, {
        'thinkflow.workflow': event.workflow,
        'thinkflow.run_id': event.runId,
        'thinkflow.definition_hash': event.definitionHash,
        'thinkflow.resumed': event.resumed === true,
      });
      const input = content(event.input);
      if (input !== undefined) span.setAttribute('thinkflow.input', input);
      passes.set(event.runId, { runId: event.runId, span, steps: new Map() });
      return true;
    }
    if (!pass) return false;
    switch (event.type) {
      case 'step_start': {
        if (event.path === undefined) return true;
        pass.steps.get(event.path)?.end(at(event.ts));
        pass.steps.set(event.path, stepSpan(pass, { stepId: event.stepId ?? event.path, path: event.path }, event.ts));
        return true;
      }
      case 'step_end': {
        const span = pass.steps.get(event.path) ?? stepSpan(pass, event, event.ts - event.ms);
        pass.steps.delete(event.path);
        span.setAttribute('thinkflow.workflow.ok', event.ok);
        const output = event.ok ? content(event.output) : undefined;
        if (output !== undefined) span.setAttribute('thinkflow.output', output);
        if (!event.ok) span.setStatus({ code: kit.codes.ERROR, message: event.error ?? 'step failed' });
        span.end(at(event.ts));
        return true;
      }
      case 'step_suspended': {
        // A waitForEvent suspends without a start: its span is the moment it began to wait.
        const span = pass.steps.get(event.path) ?? stepSpan(pass, event, event.ts);
        pass.steps.delete(event.path);
        span.setAttribute('thinkflow.workflow.suspended', true);
        if (event.event !== undefined) span.setAttribute('thinkflow.workflow.event', event.event);
        const payload = content(event.payload);
        if (payload !== undefined) span.setAttribute('thinkflow.workflow.payload', payload);
        span.end(at(event.ts));
        return true;
      }
      case 'workflow_end': {
        pass.span.setAttributes({
          'thinkflow.status': event.status,
          'gen_ai.usage.input_tokens': event.usage.promptTokens,
          'gen_ai.usage.output_tokens': event.usage.completionTokens,
          'thinkflow.llm_calls': event.usage.llmCalls,
          'thinkflow.duration_ms': event.durationMs,
          ...(event.usage.costUsd === undefined ? {} : { 'thinkflow.cost_usd': event.usage.costUsd }),
        });
        const output = content(event.output);
        if (output !== undefined) pass.span.setAttribute('thinkflow.output', output);
        // A suspended run is waiting, not failing: its status stays unset.
        if (event.status === 'done') pass.span.setStatus({ code: kit.codes.OK });
        else if (event.status !== 'suspended') {
          pass.span.setStatus({ code: kit.codes.ERROR, message: event.error?.message ?? event.status });
        }
        end(pass, event.ts);
        return true;
      }
      default:
        pass.span.addEvent(event.type, {}, at(event.ts));
        return true;
    }
  };

  return {
    handle,
    stepSpanOf(runId, parentRunId) {
      const pass = passes.get(parentRunId);
      if (!pass) return undefined;
      const path = runId.startsWith(`${parentRunId}:`) ? runId.slice(parentRunId.length + 1) : undefined;
      return (path === undefined ? undefined : pass.steps.get(path)) ?? pass.span;
    },
    close(ts) {
      for (const pass of [...passes.values()]) end(pass, ts);
    },
  };
}

/** A workflow value as a span attribute: text as it is, anything else as JSON. */
function json(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function at(ts: number): Date {
  return new Date(ts);
}
