import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/index.js';
import type { RunRecord, StoredEvent } from '../../../src/server/records/run-record.js';
import { createChangeSignal } from '../../../src/server/runs/change-signal.js';
import { followEventPages } from '../../../src/server/runs/follow-run.js';
import { streamRunAnswer } from '../../../src/server/runs/stream-run-answer.js';

const at = { runId: 'r', ts: 0, step: 0 };

/**
 * A run log whose next event is committed (and signalled) while a follower reads the run's status:
 * the moment between a read that found nothing and the sleep after it. Counts the sleeps that
 * ran out their timeout instead of being woken.
 */
function racingLog(events: AgentEvent[]) {
  const signal = createChangeSignal();
  const log: StoredEvent[] = [];
  const pending = [...events];
  let timeouts = 0;
  const commit = () => {
    const event = pending.shift();
    if (!event) return;
    log.push({ seq: log.length + 1, event });
    signal.notify('r');
  };
  return {
    get timeouts() {
      return timeouts;
    },
    service: {
      events: async (_id: string, after: number) => log.filter((e) => e.seq > after),
      async status() {
        const status = pending.length > 0 ? 'running' : 'done';
        commit();
        return status as 'running' | 'done';
      },
      async changed(id: string, timeoutMs: number) {
        let woken = false;
        const timer = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs / 10));
        await Promise.race([signal.wait(id, timeoutMs).then(() => (woken = true)), timer]);
        if (!woken) timeouts += 1;
      },
      get: async () =>
        ({
          id: 'r',
          agent: 'a',
          input: 'q',
          status: 'running',
          source: 'api',
          createdAt: 0,
          updatedAt: 0,
        }) as RunRecord,
      wait: async () => undefined,
    },
  };
}

const run: AgentEvent[] = [
  { ...at, type: 'run_start', input: 'q', model: 'm', protocol: 'native', tools: [] },
  { ...at, type: 'model_request', model: 'm', messages: [] },
  { ...at, type: 'model_delta', text: 'Hello ' },
  { ...at, type: 'model_delta', text: 'there.' },
  { ...at, type: 'run_end', status: 'done', output: 'Hello there.', usage: {}, durationMs: 1 } as AgentEvent,
];

describe('following a run is woken by a change signalled during its read', () => {
  it('followEventPages', async () => {
    const log = racingLog(run);
    const seen: string[] = [];
    for await (const page of followEventPages(log.service, 'r', 0)) seen.push(...page.map((e) => e.event.type));
    expect(seen).toEqual(run.map((e) => e.type));
    expect(log.timeouts).toBe(0);
  });

  it('streamRunAnswer', async () => {
    const log = racingLog(run);
    const pieces: string[] = [];
    for await (const piece of streamRunAnswer(log.service, 'r')) pieces.push(piece.text);
    expect(pieces.join('')).toBe('Hello there.');
    expect(log.timeouts).toBe(0);
  });
});
