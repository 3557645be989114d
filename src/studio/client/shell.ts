import { api, setToken } from './api.js';
import { type Child, h, mount } from './dom.js';

const app = document.getElementById('app') as HTMLElement;
const TABS = [
  ['Chat', '#chat'],
  ['Runs', '#runs'],
  ['Workflows', '#workflows'],
  ['Trace file', '#trace'],
  ['Eval', '#eval'],
] as const;

/** Draws the header with `tab` marked, and `content` below it. */
export function shell(tab: string, ...content: Child[]): void {
  const link = ([name, hash]: (typeof TABS)[number]) =>
    h('button', { class: tab === name ? 'active' : '', onclick: () => go(hash), 'data-tab': name }, name);
  mount(app, h('header', {}, h('h1', {}, 'thinkflow studio'), TABS.map(link)), h('main', {}, ...content));
}

/** Opens a view (drawing it again when it is the one shown). */
export function go(hash: string): void {
  if (location.hash === hash) reroute();
  else location.hash = hash;
}

/** Draws the current view again. */
function reroute(): void {
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** Asks for the API token once; it stays in this browser and is never drawn. */
export function askToken(): void {
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
          reroute();
        },
      },
      h(
        'span',
        {},
        'This server needs an API token: open the link `thinkflow studio` printed, or paste one (kept in this browser only):',
      ),
      input,
      h('button', { class: 'btn', type: 'submit' }, 'Use token'),
    ),
  );
}

let names: string[] = [];
/** The served agents' names (asked once). */
export async function agentNames(): Promise<string[]> {
  if (names.length === 0) names = (await api<{ agents: string[] }>('/v1/agents')).agents;
  return names;
}
