import { type Child, h } from './dom.js';
import type { RunNode, StepItem, StepNode } from './run-tree.js';

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Draws a run's step tree; nested agents become indented branches. `raw` adds the model requests/responses. */
export function renderRun(run: RunNode, options: { raw?: boolean } = {}): HTMLElement {
  return h(
    'div',
    { class: 'run-tree', 'data-run': run.runId },
    h(
      'div',
      { class: 'meta' },
      `${run.agent ?? 'agent'} · ${run.model ?? ''} · ${run.status ?? ''}`,
      run.durationMs !== undefined && ` · ${run.durationMs} ms`,
      run.costUsd !== undefined && ` · $${run.costUsd.toFixed(6)}`,
    ),
    run.error && h('div', { class: 'node error' }, run.error),
    run.steps.map((step) => renderStep(step, options)),
  );
}

function renderStep(step: StepNode, options: { raw?: boolean }): HTMLElement {
  return h(
    'div',
    { class: 'step', 'data-step': step.step },
    h(
      'div',
      { class: 'head' },
      h('span', {}, `step ${step.step}`),
      step.ms !== undefined && h('span', {}, `${step.ms} ms`),
      step.tokens !== undefined && h('span', {}, `${step.tokens} tokens`),
    ),
    step.items.map((item) => renderItem(item, options)),
    options.raw &&
      step.request !== undefined &&
      h('details', { class: 'raw' }, h('summary', {}, 'model request'), h('pre', {}, json(step.request))),
    options.raw &&
      step.response !== undefined &&
      h('details', { class: 'raw' }, h('summary', {}, 'model response'), h('pre', {}, json(step.response))),
  );
}

function renderItem(item: StepItem, options: { raw?: boolean }): Child {
  switch (item.kind) {
    case 'thought':
      return node('thought', 'Thought', item.text);
    case 'tool':
      return h(
        'div',
        { class: 'node tool', 'data-tool': item.tool },
        h('span', { class: 'label' }, `Tool ${item.tool}`),
        item.ms !== undefined && h('span', { class: 'meta' }, ` ${item.ms} ms${item.ok === false ? ' · failed' : ''}`),
        h('pre', { class: 'args' }, json(item.input)),
        item.output !== undefined && h('pre', { class: 'output' }, item.output),
      );
    case 'observation':
      return node('observation', 'Observation', item.text);
    case 'warning':
      return node('warning', 'Warning', item.text);
    case 'invalid':
      return node('warning', 'Invalid reply', item.text);
    case 'approval':
      return node(
        'approval',
        item.tool === 'ask_user' ? 'Question' : `Approval for ${item.tool}`,
        `${item.question ?? json(item.input)}${item.answered ? ` → ${item.answered}` : ' (waiting)'}`,
      );
    case 'handoff':
      return node('tool', 'Handoff', item.text);
    case 'final':
      return node('final', 'Final', item.text);
    case 'child':
      return h('div', { class: 'branch' }, renderRun(item.run, options));
  }
}

function node(kind: string, label: string, text: string): HTMLElement {
  return h('div', { class: `node ${kind}` }, h('span', { class: 'label' }, label), h('pre', {}, text));
}
