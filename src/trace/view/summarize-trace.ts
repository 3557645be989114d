import type { AgentEvent, EventOf, RunUsage, Usage } from '../../core/index.js';

/** One tool call as the trace shows it. */
export interface TraceToolCall {
  callId: string;
  tool: string;
  input: unknown;
  startTs?: number;
  ms?: number;
  ok?: boolean;
  output?: string;
  error?: string;
  /** The call this one was made from (a code-mode program's `run_code` call); listed right after it. */
  parentCallId?: string;
}

/** One model call: the request sent and the reply received. */
export interface TraceModelCall {
  request?: EventOf<'model_request'>;
  response?: EventOf<'model_response'>;
}

/** A step folded out of its events, for the timeline and the HTML report. */
export interface TraceStep {
  step: number;
  startTs: number;
  endTs: number;
  modelCalls: TraceModelCall[];
  thoughts: string[];
  tools: TraceToolCall[];
  observations: string[];
  /** Everything else that happened in the step (warnings, invalid output, cache hits, ...), in order. */
  notes: AgentEvent[];
  final?: string;
  usage: Usage;
}

/** A run folded out of its events. Events of child runs (`parentRunId`) are left out. */
export interface TraceSummary {
  start?: EventOf<'run_start'>;
  end?: EventOf<'run_end'>;
  steps: TraceStep[];
  /** Events that belong to no step (plans, memory, warnings before step 1). */
  notes: AgentEvent[];
  usage: RunUsage;
  startTs: number;
  endTs: number;
}

/** Folds a trace's events into steps: model calls, tool calls with durations, thoughts and notes. */
export function summarizeTrace(events: readonly AgentEvent[]): TraceSummary {
  const rootId = events.find((e) => e.type === 'run_start' && !e.parentRunId)?.runId ?? events[0]?.runId;
  const own = events.filter((e) => e.runId === rootId);
  const steps = new Map<number, TraceStep>();
  const summary: TraceSummary = {
    steps: [],
    notes: [],
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0 },
    startTs: own[0]?.ts ?? 0,
    endTs: own.at(-1)?.ts ?? 0,
  };
  const stepOf = (n: number, ts: number): TraceStep => {
    let step = steps.get(n);
    if (!step) {
      step = {
        step: n,
        startTs: ts,
        endTs: ts,
        modelCalls: [],
        thoughts: [],
        tools: [],
        observations: [],
        notes: [],
        usage: zero(),
      };
      steps.set(n, step);
    }
    step.endTs = Math.max(step.endTs, ts);
    return step;
  };
  for (const event of own) {
    if (event.type === 'run_start') summary.start = event;
    else if (event.type === 'run_end') summary.end = event;
    else if (typeof event.step === 'number') addToStep(stepOf(event.step, event.ts), event);
    else summary.notes.push(event);
  }
  summary.steps = [...steps.values()].sort((a, b) => a.step - b.step);
  for (const step of summary.steps) {
    summary.usage.promptTokens += step.usage.promptTokens;
    summary.usage.completionTokens += step.usage.completionTokens;
    summary.usage.llmCalls += step.modelCalls.filter((c) => c.response).length;
  }
  if (summary.end) summary.usage = summary.end.usage;
  return summary;
}

function addToStep(step: TraceStep, event: AgentEvent): void {
  switch (event.type) {
    case 'step_start':
      step.startTs = Math.min(step.startTs, event.ts);
      return;
    case 'model_request':
      step.modelCalls.push({ request: event });
      return;
    case 'model_response': {
      const open = step.modelCalls.at(-1);
      if (open && !open.response) open.response = event;
      else step.modelCalls.push({ response: event });
      step.usage.promptTokens += event.usage?.promptTokens ?? 0;
      step.usage.completionTokens += event.usage?.completionTokens ?? 0;
      return;
    }
    case 'thought':
      step.thoughts.push(event.text);
      return;
    case 'tool_start': {
      const call: TraceToolCall = { callId: event.callId, tool: event.tool, input: event.input, startTs: event.ts };
      if (!event.parentCallId) {
        step.tools.push(call);
        return;
      }
      call.parentCallId = event.parentCallId;
      // Under its parent, after the calls the parent made before it.
      const at = step.tools.findLastIndex(
        (t) => t.callId === event.parentCallId || t.parentCallId === event.parentCallId,
      );
      step.tools.splice(at < 0 ? step.tools.length : at + 1, 0, call);
      return;
    }
    case 'tool_end': {
      const call = step.tools.find((t) => t.callId === event.callId && t.ms === undefined);
      const done = { ms: event.ms, ok: event.ok, output: event.output, error: event.error };
      if (call) Object.assign(call, done);
      else step.tools.push({ callId: event.callId, tool: event.tool, input: undefined, ...done });
      return;
    }
    case 'observation':
      step.observations.push(event.text);
      return;
    case 'final':
      step.final = event.output;
      return;
    case 'model_delta':
    case 'reasoning_delta':
      return;
    default:
      step.notes.push(event);
  }
}

function zero(): Usage {
  return { promptTokens: 0, completionTokens: 0 };
}
