import type { GraphNode, GraphStep, SchemaView, WorkflowGraph } from '../../workflow/index.js';

/** A step's status as the graph shows it. */
export type StepStatus = 'pending' | 'running' | 'done' | 'suspended' | 'failed';

/** A workflow run as `GET /v1/workflows/runs/:id` answers it (the fields the page reads). */
export interface WorkflowRunView {
  id: string;
  workflow: string;
  status: 'running' | 'done' | 'suspended' | 'failed' | 'cancelled';
  input?: unknown;
  output?: unknown;
  error?: { code?: string; message: string };
  steps: Record<string, { status: 'done'; output?: unknown } | { status: 'suspended'; payload?: unknown }>;
  suspended: { path: string; stepId: string; payload?: unknown; event?: string }[];
  createdAt: number;
}

/** What a checkpoint path came to: its status and, for a failure, the message. */
export interface PathState {
  status: StepStatus;
  error?: string;
  output?: unknown;
}

/** A workflow event as the stream carries it (the fields read here). */
interface StepEvent {
  type: string;
  runId: string;
  path?: unknown;
  ok?: unknown;
  error?: unknown;
  output?: unknown;
}

/**
 * The status of each checkpoint path of a run: the stored checkpoints, overlaid by the run's own step
 * events in order (an agent's events inside a step carry another run id and no path). A stored `done`
 * is final and wins; the events are newer than a stored `suspended` (a resume runs that step again).
 */
export function pathStates(run: WorkflowRunView, events: readonly StepEvent[]): Map<string, PathState> {
  const states = new Map<string, PathState>();
  for (const [path, record] of Object.entries(run.steps))
    states.set(path, record.status === 'done' ? { status: 'done', output: record.output } : { status: 'suspended' });
  for (const event of events) {
    if (event.runId !== run.id || typeof event.path !== 'string') continue;
    if (states.get(event.path)?.status === 'done' && event.path in run.steps) continue;
    if (event.type === 'step_start') states.set(event.path, { status: 'running' });
    else if (event.type === 'step_suspended') states.set(event.path, { status: 'suspended' });
    else if (event.type === 'step_end')
      states.set(
        event.path,
        event.ok === false
          ? { status: 'failed', error: String(event.error ?? 'failed') }
          : { status: 'done', output: event.output },
      );
  }
  return states;
}

/** The graph path of a checkpoint path: a foreach item (`[3]`) and a loop iteration (`#0`) taken off. */
export function graphPath(checkpointPath: string): string {
  return checkpointPath.replace(/\[\d+\]|#\d+/g, '');
}

/** A graph step's status over all its checkpoints (foreach items, loop iterations, a nested workflow's steps). */
export interface StepSummary {
  status: StepStatus;
  /** Checkpoints by status (a foreach shows how many items are done). */
  counts: Partial<Record<StepStatus, number>>;
  /** Its own checkpoint paths, in run order, with their states. */
  paths: [string, PathState][];
}

const RANK: StepStatus[] = ['failed', 'suspended', 'running', 'done'];

/** Sums up the checkpoints of the step at graph path `path` (and, for a nested workflow, those under it). */
export function summarize(path: string, states: Map<string, PathState>): StepSummary {
  const counts: Partial<Record<StepStatus, number>> = {};
  const paths: [string, PathState][] = [];
  for (const [at, state] of states) {
    const base = graphPath(at);
    if (base !== path && !base.startsWith(`${path}/`)) continue;
    if (base === path) paths.push([at, state]);
    counts[state.status] = (counts[state.status] ?? 0) + 1;
  }
  // A nested workflow's own `done` checkpoint is written once all of it has ended.
  const own = states.get(path)?.status;
  const status = own === 'done' ? 'done' : (RANK.find((s) => counts[s]) ?? 'pending');
  return { status, counts, paths };
}

/** Where a suspended checkpoint's payload schema is: the step's `resumeSchema` or the event's schema. */
export function resumeSchemaOf(graph: WorkflowGraph, suspended: { path: string }): SchemaView | undefined {
  const target = graphPath(suspended.path);
  const visit = (nodes: GraphNode[]): SchemaView | undefined => {
    for (const node of nodes) {
      if (node.type === 'event') {
        if (node.path === target) return node.payload;
        continue;
      }
      if (node.type === 'sleep') continue;
      for (const step of stepsOf(node)) {
        if (step.path === target) return step.resume;
        const inner = step.workflow && visit(step.workflow.nodes);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  return visit(graph.nodes);
}

/** The steps of a node that holds steps. */
export function stepsOf(node: Exclude<GraphNode, { type: 'sleep' | 'event' }>): GraphStep[] {
  return node.type === 'parallel' || node.type === 'branch' ? node.steps : [node.step];
}
