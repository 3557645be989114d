import { api, followRun, NeedsToken } from './api.js';
import { h, oncePerFrame } from './dom.js';
import { type LooseEvent, type TreeBuilder, treeBuilder } from './run-tree.js';

/** A run followed live: its tree grows with each event; `onChange` redraws (at most once a frame). */
export interface LiveRun {
  id: string;
  tree: TreeBuilder;
  /** Events seen, by sequence number (a reconnect never adds one twice). */
  seen: number;
  /** The questions the run waits on, from its record (`ask_user` emits no event, so the page polls). */
  questions: Question[];
  /** Redraws the view showing the run; the view that opens the run sets it. */
  onChange: () => void;
  stop(): void;
}

/** A question a paused run waits on, as GET /v1/runs/:id returns it. */
export interface Question {
  id: string;
  kind: 'approval' | 'question';
  tool: string;
  input: unknown;
  question?: string;
  answer?: unknown;
}

/** How often the page looks for new questions while the run is unfinished. */
const QUESTION_POLL_MS = 700;

let current: LiveRun | undefined;

/**
 * Follows run `id`, the one run the page follows (a view that opens another stops the first), and
 * redraws with `onChange`. Opening the run already followed keeps its tree and only moves the redraw.
 */
export function follow(id: string, onChange: () => void, onNeedsToken: () => void): LiveRun {
  if (current?.id !== id) {
    current?.stop();
    current = followLive(id, onChange, onNeedsToken);
  }
  current.onChange = onChange;
  return current;
}

/** The run followed now, if any. */
export function followed(): LiveRun | undefined {
  return current;
}

/** Stops following any run. */
export function unfollow(): void {
  current?.stop();
  current = undefined;
}

function followLive(id: string, onChange: () => void, onNeedsToken: () => void): LiveRun {
  const controller = new AbortController();
  const live: LiveRun = {
    id,
    tree: treeBuilder(),
    seen: 0,
    questions: [],
    onChange,
    stop: () => controller.abort(),
  };
  let ended = false;
  const redraw = oncePerFrame(() => live.onChange());
  followRun(
    id,
    ({ event }) => {
      live.seen++;
      live.tree.add(event as LooseEvent);
      redraw();
    },
    controller.signal,
  ).then(
    () => {
      ended = true;
      live.questions = [];
      redraw();
    },
    (error) => {
      ended = true;
      if (error instanceof NeedsToken) onNeedsToken();
    },
  );
  const poll = async () => {
    if (ended || controller.signal.aborted) return;
    const run = await api<{ questions?: Question[] }>(`/v1/runs/${encodeURIComponent(id)}`).catch(() => undefined);
    const open = (run?.questions ?? []).filter((q) => !q.answer);
    if (JSON.stringify(open) !== JSON.stringify(live.questions)) {
      live.questions = open;
      redraw();
    }
    setTimeout(poll, QUESTION_POLL_MS);
  };
  void poll();
  return live;
}

/** The Approve/Deny buttons or the answer box for each question the run waits on. */
export function renderQuestions(live: LiveRun): HTMLElement[] {
  return live.questions.map((asked) => {
    const send = async (approved: boolean, answer?: string) => {
      await api(`/v1/runs/${encodeURIComponent(live.id)}/approvals`, {
        method: 'POST',
        body: { questionId: asked.id, approved, answer },
      });
      live.questions = live.questions.filter((q) => q.id !== asked.id);
    };
    if (asked.kind === 'question') {
      const input = h('input', { class: 'grow', name: 'answer', placeholder: 'Your answer' }) as HTMLInputElement;
      return h(
        'form',
        {
          class: 'ask row',
          'data-question': asked.id,
          onsubmit: (e: Event) => {
            e.preventDefault();
            void send(true, input.value);
          },
        },
        h('strong', {}, asked.question ?? 'The agent asks'),
        input,
        h('button', { class: 'btn', type: 'submit' }, 'Answer'),
      );
    }
    return h(
      'div',
      { class: 'ask', 'data-approval': asked.id },
      h('div', {}, h('strong', {}, `Approve ${asked.tool}?`)),
      h('pre', {}, JSON.stringify(asked.input, null, 2)),
      h(
        'div',
        { class: 'row' },
        h('button', { class: 'btn', onclick: () => void send(true) }, 'Approve'),
        h('button', { class: 'btn danger', onclick: () => void send(false) }, 'Deny'),
      ),
    );
  });
}
