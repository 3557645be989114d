import type { AgentEvent, StepJournal } from '../core/index.js';

/** Where an event sits in its run: the same number on every replay, so a consumer that stores events can skip ones it has. */
export interface EventMeta {
  seq: number;
}

/** A run's journal and its event callback, with the events of its replayed part held back. */
export interface ReplayEvents {
  journal: StepJournal;
  onEvent: (event: AgentEvent) => void;
  /** Sends what is still held (the run ended). */
  flush(): void;
}

/**
 * Events as they happen on an engine that replays a run from its start after a restart or a wait:
 * events are held while the run replays, dropped when the step after them turns out replayed (they
 * went out the first time), and sent when a step runs anew. `approval_request` always goes out at
 * once: a replay announces its wait again by contract (resolvers dedupe by `answerId`). Each event's
 * `seq` is its place in the run, the same on every replay: the events held back at a restart (the tail
 * of the step that was running) may repeat, and `seq` tells them apart.
 */
export function replayEvents(
  journal: StepJournal,
  onEvent: ((event: AgentEvent, meta: EventMeta) => void) | undefined,
): ReplayEvents {
  let live = false;
  let seq = 0;
  let held: [AgentEvent, EventMeta][] = [];
  const flush = () => {
    const out = held;
    held = [];
    for (const [event, meta] of out) onEvent?.(event, meta);
  };
  const step: StepJournal['step'] = async (at, fn) => {
    let ran = false;
    try {
      return await journal.step(at, () => {
        ran = true;
        if (!live) {
          live = true;
          flush();
        }
        return fn();
      });
    } finally {
      // A replayed step: what was held before it went out the first time.
      if (!ran && !live) held = [];
    }
  };
  return {
    journal: {
      engine: journal.engine,
      step,
      answer: (key, announce) => journal.answer(key, announce),
      sleep: (ms) => journal.sleep(ms),
      seed: () => journal.seed(),
      now: () => journal.now(),
    },
    onEvent(event) {
      const meta = { seq: seq++ };
      if (live || event.type === 'approval_request') onEvent?.(event, meta);
      else held.push([event, meta]);
    },
    flush,
  };
}
