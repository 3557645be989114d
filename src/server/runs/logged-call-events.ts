import type { AgentEvent } from '../../core/index.js';
import type { RunStore } from '../records/index.js';

const PAGE = 1000;

/**
 * Which call events of a resumed run its log holds already: a `tool_start`, `tool_end` or
 * `approval_response` of the same step and call. A resumed step's calls go through the step journal
 * again (a call that ended is read back, not run), and the loop emits their events again; the server
 * leaves out those the log has, so each call starts and ends once in the log, and one whose end was
 * cut off by the crash still gets its `tool_end`. Reads the log once, only for a run whose journal has
 * records (a run that recorded nothing has no call to answer again).
 */
export async function loggedCallEvents(store: RunStore, runId: string): Promise<(event: AgentEvent) => boolean> {
  const logged = new Set<string>();
  for (let after = 0; ; ) {
    const page = await store.readEvents(runId, after, PAGE);
    for (const { seq, event } of page) {
      after = seq;
      const key = callEventKey(event);
      if (key) logged.add(key);
    }
    if (page.length < PAGE) break;
  }
  return (event) => {
    const key = callEventKey(event);
    return key !== undefined && logged.has(key);
  };
}

function callEventKey(event: AgentEvent): string | undefined {
  if (event.type === 'tool_start' || event.type === 'tool_end' || event.type === 'approval_response') {
    return `${event.type} ${event.step}/${event.callId}`;
  }
  return undefined;
}
