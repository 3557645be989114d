import { type Child, h } from './dom.js';
import type { RunNode, StepItem, StepNode } from './run-tree.js';

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** How a tree is drawn: `raw` adds the model requests/responses; `open` names the ones a person expanded. */
export interface TreeOptions {
  raw?: boolean;
  /** Keys (`data-key`) of the `<details>` that are open, so a redraw keeps them open. */
  open?: ReadonlySet<string>;
}

/** US dollars as the page shows them. */
export const usd = (value: number) => `$${value.toFixed(6)}`;

/** Draws a whole run: its head and every step; nested agents become indented branches. */
function renderRun(run: RunNode, options: TreeOptions = {}): HTMLElement {
  return h(
    'div',
    { class: 'run-tree', 'data-run': run.runId },
    renderRunHead(run),
    run.steps.map((step) => renderStep(run, step, options)),
  );
}

/** The Files panel: each workspace file the run changed, how it stands and the step that last changed it. */
export function renderFiles(files: NonNullable<RunNode['files']>): HTMLElement {
  const paths = Object.keys(files).sort();
  return h(
    'details',
    { class: 'files', open: true },
    h('summary', {}, `Files (${paths.length})`),
    h(
      'ul',
      {},
      paths.map((path) =>
        h(
          'li',
          { 'data-status': files[path].status },
          `${path} · ${files[path].status} at step ${files[path].step ?? '?'}`,
        ),
      ),
    ),
  );
}

/** The run's agent, model, status, duration, cost and error, and the Files panel of a workspace run. */
export function renderRunHead(run: RunNode): Child[] {
  return [
    h(
      'div',
      { class: 'meta' },
      `${run.agent ?? 'agent'} · ${run.model ?? ''} · ${run.status ?? ''}`,
      run.durationMs !== undefined && ` · ${run.durationMs} ms`,
      run.costUsd !== undefined && ` · ${usd(run.costUsd)}`,
    ),
    run.error && h('div', { class: 'node error' }, run.error),
    run.files && renderFiles(run.files),
  ];
}

/** One step of `run`: its time, tokens and cost, its items, and (raw) the model request and response. */
export function renderStep(run: RunNode, step: StepNode, options: TreeOptions): HTMLElement {
  const raw = (what: string, value: unknown) => {
    const key = `${run.runId}/${step.step}/${what}`;
    return h(
      'details',
      { class: 'raw', 'data-key': key, open: options.open?.has(key) },
      h('summary', {}, `model ${what}`),
      h('pre', {}, json(value)),
    );
  };
  return h(
    'div',
    { class: 'step', 'data-step': step.step },
    h(
      'div',
      { class: 'head' },
      h('span', {}, `step ${step.step}`),
      step.ms !== undefined && h('span', {}, `${step.ms} ms`),
      step.tokens !== undefined && h('span', { class: 'tokens' }, `${step.tokens} tokens`),
      step.costUsd !== undefined && h('span', { class: 'cost' }, usd(step.costUsd)),
    ),
    step.items.map((item) => renderItem(item, options)),
    options.raw && step.request !== undefined && raw('request', step.request),
    options.raw && step.response !== undefined && raw('response', step.response),
  );
}

/** The items that are a line of text: the node's class and label. */
const TEXT_ITEMS = {
  thought: ['thought', 'Thought'],
  observation: ['observation', 'Observation'],
  warning: ['warning', 'Warning'],
  invalid: ['warning', 'Invalid reply'],
  handoff: ['tool', 'Handoff'],
  compact: ['observation', 'Context compacted'],
  final: ['final', 'Final'],
  plan: ['thought', 'Plan'],
} as const satisfies Record<Extract<StepItem, { text: string }>['kind'], readonly [string, string]>;

function renderItem(item: StepItem, options: TreeOptions): Child {
  switch (item.kind) {
    case 'tool':
      return h(
        'div',
        { class: 'node tool', 'data-tool': item.tool },
        h('span', { class: 'label' }, `Tool ${item.tool}`),
        item.ms !== undefined && h('span', { class: 'meta' }, ` ${item.ms} ms${item.ok === false ? ' · failed' : ''}`),
        h('pre', { class: 'args' }, json(item.input)),
        item.output !== undefined && h('pre', { class: 'output' }, item.output),
        item.diff !== undefined && h('pre', { class: 'diff' }, item.diff),
        !!item.calls?.length &&
          h(
            'div',
            { class: 'branch' },
            item.calls.map((call) => renderItem(call, options)),
          ),
      );
    case 'approval':
      return node(
        'approval',
        item.tool === 'ask_user' ? 'Question' : `Approval for ${item.tool}`,
        `${item.question ?? json(item.input)}${item.answered ? ` → ${item.answered}` : ' (waiting)'}`,
      );
    case 'child':
      return h('div', { class: 'branch' }, renderRun(item.run, options));
    default: {
      const [kind, label] = TEXT_ITEMS[item.kind];
      return node(kind, label, item.text);
    }
  }
}

function node(kind: string, label: string, text: string): HTMLElement {
  return h('div', { class: `node ${kind}` }, h('span', { class: 'label' }, label), h('pre', {}, text));
}
