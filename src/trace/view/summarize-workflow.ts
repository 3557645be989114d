import type { AgentEvent, EventOf, RunError, RunUsage } from '../../core/index.js';
import { summarizeTrace, type TraceSummary } from './summarize-trace.js';

/** Where a workflow step stands at the end of the trace. */
export type WorkflowStepStatus = 'running' | 'done' | 'failed' | 'suspended';

/** One workflow step folded out of its events, by path. */
export interface WorkflowTraceStep {
  /** The step's checkpoint path (`1.draft`, `2.item[3]`, `0.inner/1.check`). */
  path: string;
  stepId: string;
  /**
   * `step` a step that ran; `agent` one whose agent run is in the trace (see `agent`); `event` a
   * `waitForEvent`; `workflow` a nested workflow, whose steps' paths start with its own and `/`.
   */
  kind: 'step' | 'agent' | 'event' | 'workflow';
  status: WorkflowStepStatus;
  /** How deep in nested workflows: the `/` in its path. */
  depth: number;
  startTs: number;
  /** Absent while it runs. */
  endTs?: number;
  ms?: number;
  output?: unknown;
  error?: string;
  /** What it asked for when it suspended (kept once it is resumed). */
  payload?: unknown;
  /** The event a `waitForEvent` waits for. */
  event?: string;
  /** It suspended in one pass and went on in a later one. */
  resumed?: boolean;
  /** The index in `passes` of the pass its last event belongs to. */
  pass: number;
  /** The agent run of an agent step (runId `<workflow run>:<path>`), folded as agent traces are. */
  agent?: TraceSummary;
}

/** One pass over the run: a start, a resume after a suspension or a crash, each from `workflow_start`. */
export interface WorkflowTracePass {
  start: EventOf<'workflow_start'>;
  /** Absent when the pass did not finish (crashed or still running). */
  end?: EventOf<'workflow_end'>;
  startTs: number;
  /** Its `workflow_end`, or its last event. */
  endTs: number;
}

/** A workflow run folded out of its events, over every pass in the trace. */
export interface WorkflowTraceSummary {
  runId: string;
  workflow: string;
  definitionHash: string;
  input: unknown;
  passes: WorkflowTracePass[];
  /** The last pass's end status, `running` when it has none. */
  status: EventOf<'workflow_end'>['status'] | 'running';
  output?: unknown;
  error?: RunError;
  /** In path order: node by node, parallel siblings in the order they started, foreach items by index. */
  steps: WorkflowTraceStep[];
  /** The last `workflow_end`'s usage (each pass counts the finished steps it reuses), else the agents' summed. */
  usage: RunUsage;
  /** Time spent running, summed over the passes: a suspended run's wait is not counted. */
  durationMs: number;
  startTs: number;
  endTs: number;
}

/** The run id of the workflow a trace is about, when its first root event is a `workflow_start`. */
export function workflowRootId(events: readonly AgentEvent[]): string | undefined {
  const root = events.find((e) => !e.parentRunId && (e.type === 'run_start' || e.type === 'workflow_start'));
  return root?.type === 'workflow_start' ? root.runId : undefined;
}

/**
 * Folds a workflow run's trace (one pass or several: each resume starts with its own
 * `workflow_start`) into its steps by path, each with its status, times, output, error or suspend
 * payload, and for an agent step the agent run's own summary. Undefined when the trace's root is not
 * a workflow.
 *
 * @example
 * const summary = summarizeWorkflowTrace(readTrace('flow.jsonl'));
 * for (const step of summary?.steps ?? []) console.log(step.path, step.status, step.ms);
 */
export function summarizeWorkflowTrace(events: readonly AgentEvent[]): WorkflowTraceSummary | undefined {
  const runId = workflowRootId(events);
  if (runId === undefined) return undefined;
  const agentPrefix = `${runId}:`;
  const passes: WorkflowTracePass[] = [];
  const steps = new Map<string, WorkflowTraceStep>();
  const agents = new Map<string, AgentEvent[]>();
  for (const event of events) {
    const own = event.runId === runId;
    const agentPath =
      !own && event.parentRunId === runId && event.runId.startsWith(agentPrefix)
        ? event.runId.slice(agentPrefix.length)
        : undefined;
    if (!own && agentPath === undefined) continue;
    if (event.type === 'workflow_start' && own) {
      passes.push({ start: event, startTs: event.ts, endTs: event.ts });
      continue;
    }
    const pass = passes.at(-1);
    if (!pass) continue;
    pass.endTs = Math.max(pass.endTs, event.ts);
    if (agentPath !== undefined) {
      const list = agents.get(agentPath) ?? [];
      list.push(event);
      agents.set(agentPath, list);
    } else if (event.type === 'workflow_end') {
      pass.end = event;
      pass.endTs = event.ts;
    } else {
      foldStep(steps, event, passes.length - 1);
    }
  }
  for (const [path, list] of agents) {
    const step = steps.get(path) ?? newStep({ path, stepId: stepIdOf(path), ts: list[0]!.ts, pass: passes.length - 1 });
    steps.set(path, step);
    step.kind = 'agent';
    step.agent = summarizeTrace(list);
  }
  const last = passes.at(-1)!;
  endWaits(steps, last.end?.status === 'done');
  addNestedWorkflows(steps);
  const ended = passes.filter((p) => p.end);
  const usage =
    ended.at(-1)?.end?.usage ?? sumUsage([...steps.values()].flatMap((s) => (s.agent ? [s.agent.usage] : [])));
  return {
    runId,
    workflow: passes[0]!.start.workflow,
    definitionHash: last.start.definitionHash,
    input: passes[0]!.start.input,
    passes,
    status: last.end?.status ?? 'running',
    output: last.end?.output,
    error: last.end?.error,
    steps: sortByPath([...steps.values()]),
    usage,
    durationMs: passes.reduce((sum, p) => sum + (p.end?.durationMs ?? p.endTs - p.startTs), 0),
    startTs: passes[0]!.startTs,
    endTs: last.endTs,
  };
}

function foldStep(steps: Map<string, WorkflowTraceStep>, event: AgentEvent, pass: number): void {
  switch (event.type) {
    case 'step_start': {
      if (event.path === undefined) return;
      const before = steps.get(event.path);
      const step = newStep({ path: event.path, stepId: event.stepId ?? stepIdOf(event.path), ts: event.ts, pass });
      if (before?.status === 'suspended') Object.assign(step, { resumed: true, payload: before.payload });
      steps.set(event.path, step);
      return;
    }
    case 'step_end': {
      const step = stepAt(steps, { path: event.path, stepId: event.stepId, ts: event.ts - event.ms, pass });
      // A wait for an event ends with a step_end of its own in the pass that delivered the payload.
      if (step.status === 'suspended' && step.pass < pass) step.resumed = true;
      Object.assign(step, { status: event.ok ? 'done' : 'failed', endTs: event.ts, ms: event.ms, pass });
      if (event.ok) step.output = event.output;
      else step.error = event.error;
      return;
    }
    case 'step_suspended': {
      const step = stepAt(steps, { path: event.path, stepId: event.stepId, ts: event.ts, pass });
      Object.assign(step, { status: 'suspended', endTs: event.ts, ms: event.ts - step.startTs, pass });
      if (event.payload !== undefined) step.payload = event.payload;
      if (event.event !== undefined) Object.assign(step, { kind: 'event', event: event.event });
      return;
    }
  }
}

interface NewStep {
  path: string;
  stepId: string;
  ts: number;
  pass: number;
}

function newStep(call: NewStep): WorkflowTraceStep {
  return {
    path: call.path,
    stepId: call.stepId,
    kind: 'step',
    status: 'running',
    depth: call.path.split('/').length - 1,
    startTs: call.ts,
    pass: call.pass,
  };
}

/** The step at a path; a new one when its start is not in the trace (a trace begun mid-run). */
function stepAt(steps: Map<string, WorkflowTraceStep>, call: NewStep): WorkflowTraceStep {
  let step = steps.get(call.path);
  if (!step) {
    step = newStep(call);
    steps.set(call.path, step);
  }
  return step;
}

/**
 * A `waitForEvent` resumed in a trace written before it had a `step_end` of its own: it is over once a
 * later node ran in a later pass, or the run ended done.
 */
function endWaits(steps: Map<string, WorkflowTraceStep>, runDone: boolean): void {
  const all = [...steps.values()];
  for (const wait of all) {
    if (wait.kind !== 'event' || wait.status !== 'suspended') continue;
    const over = runDone || all.some((s) => s.pass > wait.pass && after(s.path, wait.path));
    if (over) Object.assign(wait, { status: 'done', resumed: true });
  }
}

/** Adds a `workflow` step for each nested workflow, spanning its steps, failed or suspended if one of them is. */
function addNestedWorkflows(steps: Map<string, WorkflowTraceStep>): void {
  const inner = [...steps.values()].filter((s) => s.depth > 0);
  for (const step of inner) {
    const segments = step.path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const path = segments.slice(0, i).join('/');
      let group = steps.get(path);
      if (!group) {
        group = { ...newStep({ path, stepId: stepIdOf(path), ts: step.startTs, pass: step.pass }), kind: 'workflow' };
        group.status = 'done';
        steps.set(path, group);
      }
      if (group.kind !== 'workflow') continue;
      group.startTs = Math.min(group.startTs, step.startTs);
      group.pass = Math.max(group.pass, step.pass);
      group.status = worse(group.status, step.status);
      if (step.endTs !== undefined && group.status !== 'running') {
        group.endTs = Math.max(group.endTs ?? step.endTs, step.endTs);
        group.ms = group.endTs - group.startTs;
      } else {
        group.endTs = undefined;
        group.ms = undefined;
      }
    }
  }
}

const RANK: Record<WorkflowStepStatus, number> = { done: 0, suspended: 1, running: 2, failed: 3 };

function worse(a: WorkflowStepStatus, b: WorkflowStepStatus): WorkflowStepStatus {
  return RANK[b] > RANK[a] ? b : a;
}

const SEGMENT = /^(\d+)\.([^[#~]*)(?:\[(\d+)\]|#(\d+))?/;

function stepIdOf(path: string): string {
  return SEGMENT.exec(path.split('/').at(-1) ?? '')?.[2] ?? path;
}

/** Whether `a` is a node that runs after `b`'s (node indexes along the paths, as checkpoints order them). */
function after(a: string, b: string): boolean {
  const x = a.split('/').map((s) => Number(SEGMENT.exec(s)?.[1] ?? -1));
  const y = b.split('/').map((s) => Number(SEGMENT.exec(s)?.[1] ?? -1));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
  return false;
}

/** Node index first, then siblings in the order they first appear, then item (or loop) number; a parent before its steps. */
function sortByPath(steps: WorkflowTraceStep[]): WorkflowTraceStep[] {
  const seen = new Map<string, number>();
  const keyed = steps.map((step) => {
    const segments = step.path.split('/');
    const key = segments.map((segment, i) => {
      const m = SEGMENT.exec(segment);
      const base = [...segments.slice(0, i), m ? `${m[1]}.${m[2]}` : segment].join('/');
      if (!seen.has(base)) seen.set(base, seen.size);
      return [Number(m?.[1] ?? -1), seen.get(base)!, Number(m?.[3] ?? m?.[4] ?? -1)];
    });
    return { step, key };
  });
  keyed.sort((a, b) => {
    for (let i = 0; i < Math.min(a.key.length, b.key.length); i++) {
      for (let j = 0; j < 3; j++) if (a.key[i]![j] !== b.key[i]![j]) return a.key[i]![j]! - b.key[i]![j]!;
    }
    return a.key.length - b.key.length;
  });
  return keyed.map((k) => k.step);
}

function sumUsage(usages: RunUsage[]): RunUsage {
  const total: RunUsage = { promptTokens: 0, completionTokens: 0, llmCalls: 0 };
  for (const u of usages) {
    total.promptTokens += u.promptTokens;
    total.completionTokens += u.completionTokens;
    total.llmCalls += u.llmCalls;
    if (u.costUsd !== undefined) total.costUsd = (total.costUsd ?? 0) + u.costUsd;
  }
  return total;
}
