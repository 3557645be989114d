import type { GraphNode, GraphStep, WorkflowGraph } from '../../workflow/index.js';
import { type Child, h } from './dom.js';
import { type PathState, type StepSummary, summarize } from './workflow-status.js';

/** What drawing a graph needs: each checkpoint's state, and what a click on a step does. */
export interface GraphContext {
  states: Map<string, PathState>;
  /** The graph path of the step shown in detail, marked in the drawing. */
  selected?: string;
  select(path: string): void;
}

/**
 * Draws a workflow as boxes top to bottom, one row per node: a step, the side-by-side steps of a parallel or
 * branch, a foreach or loop with its counts, a sleep, an event wait, and a nested workflow as a box holding
 * its own graph. Each step box carries `data-path` (its graph path) and `data-status`.
 */
export function drawGraph(graph: WorkflowGraph, ctx: GraphContext): HTMLElement {
  return h(
    'div',
    { class: 'wf-graph' },
    graph.nodes.map((node) => h('div', { class: 'wf-node', 'data-type': node.type }, drawNode(node, ctx))),
  );
}

function drawNode(node: GraphNode, ctx: GraphContext): Child {
  switch (node.type) {
    case 'step':
      return stepBox(node.step, ctx);
    case 'parallel':
    case 'branch':
      return [
        h('div', { class: 'wf-kind' }, node.type),
        h(
          'div',
          { class: 'wf-row' },
          node.steps.map((step) => stepBox(step, ctx)),
        ),
      ];
    case 'foreach':
      return stepBox(node.step, ctx, `foreach · ${node.concurrency} at a time`);
    case 'loop':
      return stepBox(node.step, ctx, `${node.loop} · at most ${node.maxIterations}`);
    case 'sleep':
      return markBox(
        node.path,
        ctx,
        node.ms === undefined ? `sleep until ${node.until ?? 'a computed time'}` : `sleep ${node.ms} ms`,
      );
    case 'event':
      return markBox(node.path, ctx, `wait for event “${node.event}”`);
  }
}

function stepBox(step: GraphStep, ctx: GraphContext, kind?: string): HTMLElement {
  const summary = summarize(step.path, ctx.states);
  return h(
    'div',
    {
      class: `wf-box${step.workflow ? ' wf-nested' : ''}${ctx.selected === step.path ? ' selected' : ''}`,
      'data-path': step.path,
      'data-status': summary.status,
      onclick: (e: Event) => {
        e.stopPropagation();
        ctx.select(step.path);
      },
    },
    h(
      'div',
      { class: 'wf-head' },
      h('strong', {}, step.id),
      kind && h('span', { class: 'meta' }, kind),
      h('span', { class: `status ${summary.status}` }, label(summary, Boolean(kind))),
    ),
    step.workflow && drawGraph(step.workflow, ctx),
  );
}

function markBox(path: string, ctx: GraphContext, text: string): HTMLElement {
  const status = ctx.states.get(path)?.status ?? 'pending';
  return h(
    'div',
    { class: 'wf-box wf-mark', 'data-path': path, 'data-status': status },
    h('div', { class: 'wf-head' }, h('span', {}, text), h('span', { class: `status ${status}` }, status)),
  );
}

/** The status, with how many items or iterations are done for a foreach or a loop. */
function label(summary: StepSummary, many: boolean): string {
  const done = summary.counts.done ?? 0;
  return many && summary.paths.length > 0 ? `${summary.status} · ${done}/${summary.paths.length} done` : summary.status;
}
