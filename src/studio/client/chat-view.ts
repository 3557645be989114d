import { api } from './api.js';
import { h } from './dom.js';
import { follow, type LiveRun, renderQuestions, unfollow } from './live-run.js';
import { agentNames, askToken, shell } from './shell.js';
import { type StepList, stepList } from './step-list.js';

/** The session this browser chats in (its history lives in the server's session store). */
const SESSION_KEY = 'thinkflow.studio.session';
/** The agent picked last, and the last run of each session (its tree is shown after a reload). */
const AGENT_KEY = 'thinkflow.studio.agent';
const runKey = (session: string) => `thinkflow.studio.run.${session}`;

/** GET /v1/sessions/:id. */
interface SessionView {
  id: string;
  messages: { role: string; content: unknown }[];
  /** The run answering the session now. */
  running?: string;
}

function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `studio-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function sessionId(): string {
  let id = localStorage.getItem(SESSION_KEY);
  if (!id) {
    id = newSessionId();
    localStorage.setItem(SESSION_KEY, id);
  }
  return id;
}

let steps: StepList | undefined;
/**
 * Counts chatView calls: each one awaits the server before it draws, so a call that is no longer the
 * newest (New chat clicked, then a question sent at once) must not draw over the newer one.
 */
let renders = 0;

/** Redraws the answer and the tree only, so the text being typed survives each streamed event. */
function redrawChat(live: LiveRun): void {
  const messages = document.getElementById('messages');
  const answer = document.getElementById('answer');
  if (!messages || !steps) return;
  // A question appeared or was answered: redraw the whole chat (no text is being typed in the main box then).
  if (messages.querySelectorAll('.ask').length !== live.questions.length) return void chatView();
  const root = live.tree.root();
  if (answer?.dataset.run === live.id) {
    answer.textContent = root?.answer ?? '';
    answer.dataset.status = root?.status ?? '';
  }
  steps.show(root);
}

/**
 * The chat: the session's messages from the server's session store, the run answering now (its
 * answer streaming in), and its step tree. Reloading the page, or opening it in another tab of
 * this browser, continues the same conversation.
 */
export async function chatView(): Promise<void> {
  const render = ++renders;
  const agents = await agentNames();
  const session = sessionId();
  const stored = await api<SessionView>(`/v1/sessions/${encodeURIComponent(session)}`).catch((error: Error) => {
    // createApp({ studio: true }) without a session store: say what is missing rather than a bare 404.
    if (!/^No route/.test(error.message)) throw error;
    throw new Error('This server keeps no chat sessions: pass `sessions` (a SessionStore) to createApp.');
  });
  if (render !== renders) return;
  // What is being typed (and the agent picked) survives the redraw.
  const typed = document.querySelector<HTMLInputElement>('#chat-form input[name=question]')?.value ?? '';
  const picked = document.querySelector<HTMLSelectElement>('#chat-form select[name=agent]')?.value;
  const runId = stored.running || localStorage.getItem(runKey(session)) || undefined;
  const live = runId ? follow(runId, () => redrawChat(live as LiveRun), askToken) : undefined;
  if (!live) unfollow();
  const root = live?.tree.root();
  const bubbles = stored.messages
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string')
    .map((m) => h('div', { class: `msg ${m.role}` }, m.content as string));
  // The followed run answers the last question: its bubble streams until the answer is stored.
  const last = stored.messages.at(-1);
  const answered = last?.role === 'assistant' && stored.running !== live?.id;
  if (live && answered) bubbles.pop();
  const select = h(
    'select',
    { name: 'agent' },
    agents.map((a) => h('option', { value: a }, a)),
  ) as HTMLSelectElement;
  select.value = picked && agents.includes(picked) ? picked : (localStorage.getItem(AGENT_KEY) ?? agents[0]);
  const input = h('input', {
    class: 'grow',
    name: 'question',
    placeholder: 'Ask the agent…',
    autocomplete: 'off',
  }) as HTMLInputElement;
  input.value = typed;
  const status = h('p', { class: 'error-text', id: 'chat-error' });
  const messages = h(
    'div',
    { id: 'messages', 'data-session': session },
    bubbles,
    live &&
      h(
        'div',
        { class: 'msg assistant', id: 'answer', 'data-run': live.id, 'data-status': root?.status ?? '' },
        answered ? (last?.content as string) : (root?.answer ?? ''),
      ),
    live && renderQuestions(live),
  );
  steps = stepList({ className: 'panel', title: 'Steps', empty: 'Send a question to see each step.', follow: true });
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
              localStorage.setItem(AGENT_KEY, select.value);
              const question = input.value;
              // Cleared now so the redraw after the answer starts does not carry the sent question over.
              input.value = '';
              try {
                // The server adds the session's earlier turns as the run's history. The session is
                // read now, not when this form was drawn: New chat may have started another since.
                const current = sessionId();
                const run = await api<{ id: string }>(`/v1/sessions/${encodeURIComponent(current)}/runs`, {
                  method: 'POST',
                  body: { agent: select.value, input: question },
                });
                localStorage.setItem(runKey(current), run.id);
                await chatView();
              } catch (error) {
                input.value ||= question;
                status.textContent = (error as Error).message;
              }
            },
          },
          select,
          input,
          h('button', { class: 'btn', type: 'submit' }, 'Send'),
        ),
        status,
        h(
          'button',
          {
            class: 'btn secondary',
            id: 'new-chat',
            onclick: () => {
              localStorage.setItem(SESSION_KEY, newSessionId());
              void chatView();
            },
          },
          'New chat',
        ),
      ),
      steps.el,
    ),
  );
  steps.show(root);
  const focused = document.activeElement;
  if (!focused || focused === document.body) input.focus();
}
