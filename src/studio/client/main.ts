import { adoptUrlToken, NeedsToken } from './api.js';
import { chatView } from './chat-view.js';
import { h } from './dom.js';
import { evalView } from './eval-view.js';
import { unfollow } from './live-run.js';
import { runsView, runView } from './runs-view.js';
import { askToken, shell } from './shell.js';
import { traceView } from './trace-view.js';
import { leaveWorkflows, workflowsView } from './workflows-view.js';

/** Draws the view the location's hash names. */
async function route(): Promise<void> {
  const hash = location.hash || '#chat';
  if (!hash.startsWith('#workflow')) leaveWorkflows();
  try {
    if (hash.startsWith('#workflow')) await workflowsView(hash);
    else if (hash.startsWith('#run/')) await runView(decodeURIComponent(hash.slice(5)));
    else if (hash === '#runs') {
      unfollow();
      await runsView();
    } else if (hash === '#trace') await traceView();
    else if (hash === '#eval') evalView();
    else await chatView();
  } catch (error) {
    if (error instanceof NeedsToken) askToken();
    else shell('', h('p', { class: 'error-text' }, (error as Error).message));
  }
}

adoptUrlToken();
window.addEventListener('hashchange', () => void route());
void route();
