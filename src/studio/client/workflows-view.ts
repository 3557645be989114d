import type { WorkflowGraph } from '../../workflow/index.js';
import { api, followWorkflowRun, NeedsToken } from './api.js';
import { h, mount, oncePerFrame } from './dom.js';
import { payloadForm } from './schema-form.js';
import { askToken, go, shell } from './shell.js';
import { drawGraph } from './workflow-graph.js';
import { pathStates, resumeSchemaOf, summarize, type WorkflowRunView } from './workflow-status.js';

/** One row of GET /v1/workflows. */
interface WorkflowSummary {
  name: string;
  id: string;
  definitionHash: string;
}

/** One row of GET /v1/workflows/runs. */
interface ListedRun {
  id: string;
  workflow: string;
  status: string;
  createdAt: number;
}
const LISTED_RUNS = 20;

/** Fills `list` with the caller's latest runs (the server shows each caller only theirs). */
function listRuns(list: HTMLElement): void {
  api<{ data: ListedRun[] }>(`/v1/workflows/runs?limit=${LISTED_RUNS}`)
    .then(({ data }) => {
      mount(
        list,
        ...data.map((run) =>
          h(
            'li',
            {},
            h('a', { href: `#workflow-run/${encodeURIComponent(run.id)}` }, run.workflow),
            ' ',
            h('span', { class: `status ${run.status}` }, run.status),
            ' ',
            h('span', { class: 'meta' }, `${new Date(run.createdAt).toLocaleString()} · ${run.id}`),
          ),
        ),
      );
    })
    .catch((error: unknown) => {
      mount(list, h('li', { class: 'meta' }, `runs could not be listed: ${String(error)}`));
    });
}

const graphs = new Map<string, Promise<WorkflowGraph>>();
function graphOf(name: string): Promise<WorkflowGraph> {
  let graph = graphs.get(name);
  if (!graph) {
    graph = api<{ graph: WorkflowGraph }>(`/v1/workflows/${encodeURIComponent(name)}`).then((r) => r.graph);
    graph.catch(() => graphs.delete(name));
    graphs.set(name, graph);
  }
  return graph;
}

/** Aborted when another view opens: a slow answer for this one then draws nothing, and its run is no longer followed. */
let shown: AbortController | undefined;
export function leaveWorkflows(): void {
  shown?.abort();
  shown = undefined;
}

/**
 * The Workflows tab: `#workflows/<name>` shows a workflow's graph and a form for its input;
 * `#workflow-run/<id>` a run's graph with each step's status live, and a form for each suspended step.
 */
export async function workflowsView(hash: string): Promise<void> {
  leaveWorkflows();
  const controller = new AbortController();
  shown = controller;
  const { signal } = controller;
  let names: string[];
  try {
    names = (await api<{ workflows: WorkflowSummary[] }>('/v1/workflows')).workflows.map((w) => w.name);
  } catch (error) {
    // The routes are mounted only for a config with workflows: without, the server has no such route.
    if (!(error instanceof Error) || !error.message.startsWith('No route ')) throw error;
    names = [];
  }
  if (signal.aborted) return;
  if (names.length === 0) {
    shell(
      'Workflows',
      h('p', { class: 'panel', id: 'no-workflows' }, 'This server serves no workflows: add `workflows` to its config.'),
    );
    return;
  }
  if (hash.startsWith('#workflow-run/'))
    return runPage(decodeURIComponent(hash.slice('#workflow-run/'.length)), { names, signal });
  const name = decodeURIComponent(hash.slice('#workflows/'.length));
  return workflowPage(names.includes(name) ? name : names[0]!, { names, signal });
}

/** What a page of the tab gets: the workflow names, and the signal that says another view opened. */
interface PageContext {
  names: string[];
  signal: AbortSignal;
}

/** The left column: pick a workflow, open a run by id, the caller's latest runs. */
function sidebar(names: string[], selected?: string): HTMLElement {
  const pick = h(
    'select',
    { name: 'workflow', onchange: () => go(`#workflows/${encodeURIComponent(pick.value)}`) },
    names.map((n) => h('option', { value: n }, n)),
  ) as HTMLSelectElement;
  if (selected) pick.value = selected;
  const id = h('input', { name: 'run-id', class: 'grow', placeholder: 'run id' }) as HTMLInputElement;
  const runs = h('ul', { id: 'wf-runs', class: 'wf-runs' });
  listRuns(runs);
  return h(
    'div',
    { class: 'panel' },
    h('h2', {}, 'Workflow'),
    pick,
    h('h2', {}, 'Open a run'),
    h(
      'form',
      {
        class: 'row',
        id: 'open-run',
        onsubmit: (e: Event) => {
          e.preventDefault();
          if (id.value.trim()) go(`#workflow-run/${encodeURIComponent(id.value.trim())}`);
        },
      },
      id,
      h('button', { class: 'btn secondary', type: 'submit' }, 'Open'),
    ),
    h('h2', {}, 'Latest runs'),
    runs,
  );
}

async function workflowPage(name: string, { names, signal }: PageContext): Promise<void> {
  const graph = await graphOf(name);
  if (signal.aborted) return;
  const start = payloadForm({
    id: 'wf-start',
    view: graph.input,
    label: 'Start run',
    async submit(input) {
      const run = await api<WorkflowRunView>(`/v1/workflows/${encodeURIComponent(name)}/runs`, {
        method: 'POST',
        body: { input },
      });
      go(`#workflow-run/${encodeURIComponent(run.id)}`);
    },
  });
  shell(
    'Workflows',
    h(
      'div',
      { class: 'wf-layout' },
      sidebar(names, name),
      h(
        'div',
        { class: 'panel wf-run' },
        h('div', {}, h('h2', {}, `Workflow ${name}`), drawGraph(graph, { states: new Map(), select: () => {} })),
        h('div', {}, h('h2', {}, 'Input'), start),
      ),
    ),
  );
}

/** A run followed live: its view, the events seen, and the step shown in detail. */
interface RunState {
  run: WorkflowRunView;
  events: { type: string; runId: string; [key: string]: unknown }[];
  seen: number;
  selected?: string;
  /** The suspended paths the forms on the page were drawn for. */
  formsFor?: string;
}

async function runPage(id: string, { names, signal }: PageContext): Promise<void> {
  const path = `/v1/workflows/runs/${encodeURIComponent(id)}`;
  const state: RunState = { run: await api<WorkflowRunView>(path), events: [], seen: 0 };
  const graph = await graphOf(state.run.workflow);
  if (signal.aborted) return;

  const status = h('span', { id: 'wf-run-status', class: 'status' });
  const error = h('div', { class: 'error-text', id: 'wf-error' });
  const forms = h('div', { id: 'wf-suspended' });
  const drawing = h('div', { id: 'wf-graph' });
  const detail = h('div', { id: 'wf-detail' });
  const output = h('pre', { id: 'wf-output' });
  const cancel = h(
    'button',
    {
      class: 'btn danger',
      id: 'wf-cancel',
      onclick: async () => {
        try {
          state.run = await api<WorkflowRunView>(`${path}/cancel`, { method: 'POST' });
        } catch (caught) {
          error.textContent = (caught as Error).message;
          return;
        }
        draw();
        void follow();
      },
    },
    'Cancel',
  );
  shell(
    'Workflows',
    h(
      'div',
      { class: 'wf-layout' },
      sidebar(names, state.run.workflow),
      h(
        'div',
        { class: 'panel wf-run' },
        h(
          'div',
          {},
          h('div', { class: 'row' }, h('h2', {}, `Run of ${state.run.workflow}`), status, cancel),
          h('div', { class: 'meta' }, id),
          drawing,
        ),
        h('div', {}, error, forms, output, detail),
      ),
    ),
  );

  const redraw = oncePerFrame(() => draw());
  const draw = () => {
    const { run } = state;
    status.textContent = run.status;
    status.className = `status ${run.status}`;
    status.dataset.status = run.status;
    cancel.hidden = run.status !== 'running' && run.status !== 'suspended';
    error.textContent = run.error ? run.error.message : '';
    output.textContent = run.status === 'done' ? `Output: ${JSON.stringify(run.output, null, 2)}` : '';
    const states = pathStates(run, state.events);
    const select = (at: string) => {
      state.selected = state.selected === at ? undefined : at;
      draw();
    };
    mount(drawing, drawGraph(graph, { states, selected: state.selected, select }));
    mount(detail, state.selected ? stepDetail(state.selected, summarize(state.selected, states).paths) : null);
    // Forms are drawn again only when what waits changes, so a half-filled form keeps its values.
    const waiting = run.status === 'suspended' ? run.suspended : [];
    const key = waiting.map((s) => s.path).join('\n');
    if (key !== state.formsFor) {
      state.formsFor = key;
      mount(
        forms,
        waiting.map((s) => resumeForm(s)),
      );
    }
  };
  const resumeForm = (suspended: WorkflowRunView['suspended'][number]) =>
    h(
      'div',
      { class: 'ask', 'data-suspended': suspended.path },
      h(
        'strong',
        {},
        suspended.event ? `Waiting for event “${suspended.event}”` : `Step ${suspended.stepId} waits for input`,
      ),
      h('span', { class: 'meta' }, ` ${suspended.path}`),
      suspended.payload !== undefined && h('pre', {}, JSON.stringify(suspended.payload, null, 2)),
      payloadForm({
        id: `resume-${suspended.path}`,
        view: resumeSchemaOf(graph, suspended),
        label: 'Resume',
        async submit(payload) {
          const body = suspended.event ? { event: suspended.event, payload } : { step: suspended.path, payload };
          state.run = await api<WorkflowRunView>(`/v1/runs/${encodeURIComponent(id)}/resume`, {
            method: 'POST',
            body,
          });
          draw();
          void follow();
        },
      }),
    );

  let following = false;
  /** Reads the event stream until the run stops running, then its stored view (the checkpoints the events do not carry). */
  const follow = async () => {
    if (following) return;
    following = true;
    try {
      while (!signal.aborted) {
        try {
          await followWorkflowRun(id, {
            after: state.seen,
            signal,
            onEvent: ({ seq, event }) => {
              state.seen = seq;
              state.events.push(event);
              // The run's end says its status at once; the stored view read below brings the rest (and what
              // a suspended run waits for, which the event does not say).
              const end = event as unknown as Pick<WorkflowRunView, 'status' | 'output' | 'error'>;
              if (event.type === 'workflow_end' && event.runId === id && end.status !== 'suspended')
                state.run = { ...state.run, status: end.status, output: end.output, error: end.error };
              redraw();
            },
          });
        } catch (caught) {
          if (caught instanceof NeedsToken) return askToken();
          if (signal.aborted) return;
        }
        try {
          state.run = await api<WorkflowRunView>(path);
        } catch (caught) {
          error.textContent = `Reading the run failed: ${(caught as Error).message}`;
          return;
        }
        redraw();
        if (state.run.status !== 'running') return;
        // Still running: the connection dropped, or another process runs it (its events are not here).
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      following = false;
    }
  };
  draw();
  void follow();
}

function stepDetail(path: string, paths: [string, { status: string; output?: unknown; error?: string }][]) {
  return h(
    'div',
    { class: 'wf-detail' },
    h('h2', {}, path),
    paths.length === 0 && h('p', { class: 'meta' }, 'Not run yet.'),
    paths.map(([at, s]) =>
      h(
        'div',
        { class: 'step' },
        h('div', { class: 'head' }, h('span', {}, at), h('span', { class: `status ${s.status}` }, s.status)),
        s.error && h('pre', { class: 'error-text' }, s.error),
        s.output !== undefined && h('pre', {}, JSON.stringify(s.output, null, 2)),
      ),
    ),
  );
}
