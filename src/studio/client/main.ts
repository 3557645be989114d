import { api, apiText, NeedsToken, setToken } from './api.js';
import { h, mount } from './dom.js';
import { followLive, type LiveRun, renderQuestions } from './live-run.js';
import { renderRun } from './render-tree.js';
import { STATUSES, UNFINISHED } from './run-statuses.js';
import { type LooseEvent, treeBuilder } from './run-tree.js';

/** The runs of the chat, in this browser tab (the server keeps each run). */
const CHAT_KEY = 'thinkflow.studio.chat';
const app = document.getElementById('app') as HTMLElement;
let live: LiveRun | undefined;
let agents: string[] = [];

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

const chatRuns = (): string[] => JSON.parse(sessionStorage.getItem(CHAT_KEY) ?? '[]');

function shell(tab: string, ...content: (Node | string | false | undefined)[]): void {
  const link = (name: string, hash: string) =>
    h('button', { class: tab === name ? 'active' : '', onclick: () => go(hash), 'data-tab': name }, name);
  mount(
    app,
    h(
      'header',
      {},
      h('h1', {}, 'thinkflow studio'),
      link('Chat', '#chat'),
      link('Runs', '#runs'),
      link('Trace file', '#trace'),
    ),
    h('main', {}, ...content),
  );
}

function go(hash: string): void {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

function askToken(): void {
  const input = h('input', {
    type: 'password',
    name: 'token',
    class: 'grow',
    placeholder: 'API token',
  }) as HTMLInputElement;
  shell(
    '',
    h(
      'form',
      {
        class: 'panel row',
        id: 'token-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          setToken(input.value.trim());
          void route();
        },
      },
      h('span', {}, 'This server needs an API token (kept in this browser only):'),
      input,
      h('button', { class: 'btn', type: 'submit' }, 'Use token'),
    ),
  );
}

/** Redraws the answer and the tree only, so the text being typed survives each streamed event. */
async function redrawChat(): Promise<void> {
  const messages = document.getElementById('messages');
  const tree = document.getElementById('tree');
  if (!messages || !tree || !live) return;
  const root = live.tree.root();
  const answer = document.getElementById('answer');
  const asking = messages.querySelectorAll('.ask').length;
  // A question appeared or was answered: redraw the whole chat (no text is being typed in the main box then).
  if (!answer || asking !== live.questions.length) return chatView();
  answer.textContent = root?.answer ?? '';
  answer.dataset.status = root?.status ?? '';
  if (root) mount(tree, h('h2', {}, 'Steps'), renderRun(root));
}

async function chatView(): Promise<void> {
  if (agents.length === 0) agents = (await api<{ agents: string[] }>('/v1/agents')).agents;
  const ids = chatRuns();
  const current = ids[ids.length - 1];
  if (current && live?.id !== current) {
    live?.stop();
    live = followLive(current, () => void redrawChat(), askToken);
  }
  const earlier = await Promise.all(
    ids
      .slice(0, -1)
      .map((id) => api<{ input: string; result?: { output?: string } }>(`/v1/runs/${id}`).catch(() => undefined)),
  );
  const select = h(
    'select',
    { name: 'agent' },
    agents.map((a) => h('option', { value: a }, a)),
  ) as HTMLSelectElement;
  select.value = sessionStorage.getItem(`${CHAT_KEY}.agent`) ?? agents[0];
  const input = h('input', {
    class: 'grow',
    name: 'question',
    placeholder: 'Ask the agent…',
    autocomplete: 'off',
  }) as HTMLInputElement;
  const root = live?.tree.root();
  const messages = h(
    'div',
    { id: 'messages' },
    earlier.flatMap((run) =>
      run
        ? [h('div', { class: 'msg user' }, run.input), h('div', { class: 'msg assistant' }, run.result?.output ?? '')]
        : [],
    ),
    root && h('div', { class: 'msg user' }, root.input ?? ''),
    root && h('div', { class: 'msg assistant', id: 'answer', 'data-status': root.status ?? '' }, root.answer),
    live && renderQuestions(live),
  );
  shell(
    'Chat',
    h(
      'div',
      { class: 'split' },
      h(
        'div',
        { class: 'panel' },
        h('h2', {}, 'Chat'),
        messages,
        h(
          'form',
          {
            class: 'row',
            id: 'chat-form',
            onsubmit: async (e: Event) => {
              e.preventDefault();
              if (!input.value.trim()) return;
              sessionStorage.setItem(`${CHAT_KEY}.agent`, select.value);
              // The earlier turns go with the question, so the agent sees the conversation.
              const turns = [...earlier, root && { input: root.input ?? '', result: { output: root.answer } }];
              const history = turns
                .filter((turn) => turn !== undefined)
                .flatMap((turn) => [
                  { role: 'user', content: turn.input },
                  { role: 'assistant', content: turn.result?.output ?? '' },
                ]);
              const run = await api<{ id: string }>(`/v1/agents/${encodeURIComponent(select.value)}/runs`, {
                method: 'POST',
                body: { input: input.value, history },
              });
              sessionStorage.setItem(CHAT_KEY, JSON.stringify([...chatRuns(), run.id]));
              await chatView();
            },
          },
          select,
          input,
          h('button', { class: 'btn', type: 'submit' }, 'Send'),
        ),
        h(
          'button',
          {
            class: 'btn secondary',
            onclick: () => {
              sessionStorage.removeItem(CHAT_KEY);
              live?.stop();
              live = undefined;
              void chatView();
            },
          },
          'New chat',
        ),
      ),
      h(
        'div',
        { class: 'panel tree', id: 'tree' },
        h('h2', {}, 'Steps'),
        root ? renderRun(root) : h('p', { class: 'meta' }, 'Send a question to see each step.'),
      ),
    ),
  );
  const focused = document.activeElement;
  if (!focused || focused === document.body) input.focus();
}

const pages: (string | undefined)[] = [undefined];
/** Counts listings asked for, so a slow answer to an older filter never overwrites a newer one. */
let listing = 0;
async function runsView(filters: { agent?: string; status?: string; page?: number } = {}): Promise<void> {
  if (agents.length === 0) agents = (await api<{ agents: string[] }>('/v1/agents')).agents;
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
  shell(
    'Runs',
    h(
      'div',
      { class: 'panel' },
      h(
        'div',
        { class: 'row' },
        agentSelect,
        statusSelect,
        page > 0 && h('button', { class: 'btn secondary', onclick: () => refilter(page - 1) }, '← Newer'),
        result.next &&
          h('button', { class: 'btn secondary', id: 'older', onclick: () => refilter(page + 1) }, 'Older →'),
      ),
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
            h('td', {}, run.costUsd === undefined ? '' : `$${run.costUsd.toFixed(6)}`),
            h('td', { class: 'meta' }, run.id),
          ),
        ),
      ),
      result.runs.length === 0 && h('p', { class: 'meta' }, 'No runs match.'),
    ),
  );
}

async function runView(id: string): Promise<void> {
  if (live?.id !== id) {
    live?.stop();
    live = followLive(id, () => void runView(id), askToken);
  }
  const record = await api<{ status: string; agent: string; input: string }>(`/v1/runs/${encodeURIComponent(id)}`);
  const root = live.tree.root();
  const finished = !UNFINISHED.includes(record.status);
  shell(
    'Runs',
    h(
      'div',
      { class: 'panel' },
      h(
        'div',
        { class: 'row' },
        h('h2', {}, `Run ${id}`),
        h('span', { class: `status ${record.status}`, id: 'run-status' }, record.status),
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
        h(
          'button',
          { class: 'btn secondary', id: 'download', onclick: () => void download(id) },
          'Download JSONL trace',
        ),
      ),
      h('p', {}, record.input),
      renderQuestions(live),
      h(
        'div',
        { class: 'tree', id: 'tree' },
        root ? renderRun(root, { raw: true }) : h('p', { class: 'meta' }, 'No events yet.'),
      ),
    ),
  );
}

async function download(id: string): Promise<void> {
  const text = await apiText(`/v1/runs/${encodeURIComponent(id)}/trace`);
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = h('a', { href: url, download: `${id}.jsonl` });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function traceView(): void {
  const output = h('div', { class: 'tree', id: 'tree' });
  const open = async (file: File) => {
    try {
      const tree = treeBuilder();
      for (const line of (await file.text()).split('\n')) if (line.trim()) tree.add(JSON.parse(line) as LooseEvent);
      const root = tree.root();
      mount(output, h('h2', {}, file.name), root ? renderRun(root, { raw: true }) : 'No events in this file.');
    } catch (error) {
      mount(output, h('p', { class: 'error-text' }, `Not a JSONL trace: ${(error as Error).message}`));
    }
  };
  const picker = h('input', {
    type: 'file',
    id: 'trace-file',
    accept: '.jsonl,.ndjson,.json',
    onchange: (e: Event) => {
      const file = (e.target as HTMLInputElement).files?.[0];
      if (file) void open(file);
    },
  });
  const drop = h(
    'div',
    {
      class: 'drop',
      id: 'drop',
      ondragover: (e: DragEvent) => {
        e.preventDefault();
        drop.classList.add('over');
      },
      ondragleave: () => drop.classList.remove('over'),
      ondrop: (e: DragEvent) => {
        e.preventDefault();
        drop.classList.remove('over');
        const file = e.dataTransfer?.files[0];
        if (file) void open(file);
      },
    },
    'Drop a JSONL trace here (thinkflow run --trace, runs export) or ',
    picker,
  );
  shell('Trace file', h('div', { class: 'panel' }, drop, output));
}

async function route(): Promise<void> {
  const hash = location.hash || '#chat';
  try {
    if (hash.startsWith('#run/')) await runView(decodeURIComponent(hash.slice(5)));
    else if (hash === '#runs') {
      live?.stop();
      live = undefined;
      await runsView();
    } else if (hash === '#trace') traceView();
    else {
      if (live && !chatRuns().includes(live.id)) {
        live.stop();
        live = undefined;
      }
      await chatView();
    }
  } catch (error) {
    if (error instanceof NeedsToken) askToken();
    else shell('', h('p', { class: 'error-text' }, (error as Error).message));
  }
}

window.addEventListener('hashchange', () => void route());
void route();
