import { api, apiText } from './api.js';
import { type Child, h } from './dom.js';
import { follow, type LiveRun, renderQuestions } from './live-run.js';
import { usd } from './render-tree.js';
import { addToDataset, runScores } from './run-evals.js';
import { STATUSES, UNFINISHED } from './run-statuses.js';
import { agentNames, askToken, go, shell } from './shell.js';
import { type StepList, stepList } from './step-list.js';

/** One row of GET /v1/runs. */
interface RunSummary {
  id: string;
  agent: string;
  status: string;
  createdAt: number;
  durationMs?: number;
  steps?: number;
  tokens?: number;
  costUsd?: number;
}

const pages: (string | undefined)[] = [undefined];
/** Counts listings asked for, so a slow answer to an older filter never overwrites a newer one. */
let listing = 0;
export async function runsView(filters: { agent?: string; status?: string; page?: number } = {}): Promise<void> {
  const agents = await agentNames();
  const page = filters.page ?? 0;
  const params = new URLSearchParams({ limit: '20' });
  if (filters.agent) params.set('agent', filters.agent);
  if (filters.status) params.set('status', filters.status);
  const cursor = pages[page];
  if (cursor) params.set('cursor', cursor);
  const asked = ++listing;
  const result = await api<{ runs: RunSummary[]; next?: string }>(`/v1/runs?${params}`);
  // Filters changed while this page was loading: a newer listing draws instead.
  if (asked !== listing) return;
  pages[page + 1] = result.next;
  const agentSelect = h(
    'select',
    { name: 'agent', onchange: () => refilter() },
    h('option', { value: '' }, 'all agents'),
    agents.map((a) => h('option', { value: a }, a)),
  ) as HTMLSelectElement;
  agentSelect.value = filters.agent ?? '';
  const statusSelect = h(
    'select',
    { name: 'status', onchange: () => refilter() },
    ['', ...STATUSES].map((s) => h('option', { value: s }, s || 'any status')),
  ) as HTMLSelectElement;
  statusSelect.value = filters.status ?? '';
  const refilter = (next = 0) =>
    void runsView({ agent: agentSelect.value || undefined, status: statusSelect.value || undefined, page: next });
  runsPanel(
    [
      agentSelect,
      statusSelect,
      page > 0 && h('button', { class: 'btn secondary', onclick: () => refilter(page - 1) }, '← Newer'),
      result.next && h('button', { class: 'btn secondary', id: 'older', onclick: () => refilter(page + 1) }, 'Older →'),
    ],
    h(
      'table',
      { id: 'runs' },
      h(
        'tr',
        {},
        ['Status', 'Agent', 'Started', 'Duration', 'Steps', 'Tokens', 'Cost', 'Id'].map((t) => h('th', {}, t)),
      ),
      result.runs.map((run) =>
        h(
          'tr',
          { class: 'run', 'data-id': run.id, onclick: () => go(`#run/${run.id}`) },
          h('td', {}, h('span', { class: `status ${run.status}` }, run.status)),
          h('td', {}, run.agent),
          h('td', {}, new Date(run.createdAt).toLocaleString()),
          h('td', {}, run.durationMs === undefined ? '' : `${run.durationMs} ms`),
          h('td', {}, run.steps ?? ''),
          h('td', {}, run.tokens ?? ''),
          h('td', {}, run.costUsd === undefined ? '' : usd(run.costUsd)),
          h('td', { class: 'meta' }, run.id),
        ),
      ),
    ),
    result.runs.length === 0 && h('p', { class: 'meta' }, 'No runs match.'),
  );
}

let steps: StepList | undefined;

/** The Runs tab: one panel, with its row of controls (or the run's title) on top. */
function runsPanel(row: Child[], ...rest: Child[]): void {
  shell('Runs', h('div', { class: 'panel' }, h('div', { class: 'row' }, ...row), ...rest));
}

/** Keeps the open run's status and tree current; a question asked or answered draws the view again. */
function redrawRun(live: LiveRun): void {
  const status = document.getElementById('run-status');
  if (!status || !steps || status.dataset.run !== live.id) return;
  if (document.querySelectorAll('[data-question],[data-approval]').length !== live.questions.length) {
    return void runView(live.id);
  }
  const root = live.tree.root();
  if (root?.status && !UNFINISHED.includes(root.status) && root.status !== status.textContent) {
    // The run ended: draw again for its final status (and without the Cancel button).
    return void runView(live.id);
  }
  steps.show(root);
}

/** One run: its status, Cancel while it runs, its questions, its JSONL trace, and its step tree live. */
export async function runView(id: string): Promise<void> {
  const live = follow(id, () => redrawRun(live), askToken);
  const record = await api<{ status: string; agent: string; input: string }>(`/v1/runs/${encodeURIComponent(id)}`);
  const root = live.tree.root();
  // The record can lag the events by a moment; a run_end already seen wins.
  const status = root?.status && !UNFINISHED.includes(root.status) ? root.status : record.status;
  const finished = !UNFINISHED.includes(status);
  steps = stepList({ raw: true, empty: 'No events yet.', follow: !finished });
  runsPanel(
    [
      h('h2', {}, `Run ${id}`),
      h('span', { class: `status ${status}`, id: 'run-status', 'data-run': id }, status),
      !finished &&
        h(
          'button',
          {
            class: 'btn danger',
            id: 'cancel',
            onclick: async () => {
              await api(`/v1/runs/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
              await runView(id);
            },
          },
          'Cancel',
        ),
      h('button', { class: 'btn secondary', id: 'download', onclick: () => void download(id) }, 'Download JSONL trace'),
    ],
    h('p', {}, record.input),
    renderQuestions(live),
    finished && runScores(id),
    finished && addToDataset(id),
    steps.el,
  );
  steps.show(root);
}

async function download(id: string): Promise<void> {
  const text = await apiText(`/v1/runs/${encodeURIComponent(id)}/trace`);
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = h('a', { href: url, download: `${id}.jsonl` });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
