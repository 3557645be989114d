import { type AgentEvent, errorMessage } from '../../core/index.js';
import type { WorkflowStore } from '../../workflow/index.js';
import type { StoredEvent } from '../records/index.js';
import { createWorkflowEventLog } from './workflow-event-log.js';

/** Events kept per run, and runs whose events are kept (the oldest log goes first). */
const EVENTS_PER_RUN = 10_000;
const LOGGED_RUNS = 500;

/**
 * The events of the workflow runs this process carries: written to a store that keeps events (redacted,
 * a commit per tick) and read back from it, or else kept here, a bounded log per run.
 */
export interface WorkflowRunEvents {
  record(id: string, event: AgentEvent): void;
  /** The run's events after `afterSeq`. */
  read(id: string, afterSeq: number): Promise<StoredEvent[]>;
  /** Resolves when this process wrote events of the run, or after `timeoutMs`. */
  changed(id: string, timeoutMs: number): Promise<void>;
  /** Wakes the run's readers (it ended). */
  wake(id: string): void;
  /** Writes what waits for the store. */
  flush(): Promise<void>;
}

type RunLog = { events: StoredEvent[]; seq: number; waiters: Set<() => void> };

export function workflowRunEvents(store: WorkflowStore, onError?: (error: unknown) => void): WorkflowRunEvents {
  const logs = new Map<string, RunLog>();
  const logOf = (id: string) => {
    let log = logs.get(id);
    if (!log) {
      if (logs.size >= LOGGED_RUNS) logs.delete(logs.keys().next().value as string);
      log = { events: [], seq: 0, waiters: new Set() };
      logs.set(id, log);
    }
    return log;
  };
  const wake = (id: string) => {
    const log = logs.get(id);
    for (const waiter of log?.waiters ?? []) waiter();
    log?.waiters.clear();
  };
  // With a store that keeps events, they go there (redacted, a commit per tick), and readers read them back.
  const durable = store.appendEvents
    ? createWorkflowEventLog({
        store: { appendEvents: store.appendEvents.bind(store) },
        onWritten: (ids) => {
          for (const id of ids) wake(id);
        },
        // Said as what it is: the run goes on, its events wait in memory for the store.
        onError: (error) =>
          onError?.(
            new Error(`writing workflow events failed (kept, written again shortly): ${errorMessage(error)}`, {
              cause: error,
            }),
          ),
      })
    : undefined;
  return {
    record(id, event) {
      if (durable) return durable.add(id, event);
      const log = logOf(id);
      log.seq++;
      if (log.events.length < EVENTS_PER_RUN) log.events.push({ seq: log.seq, event });
      wake(id);
    },
    async read(id, afterSeq) {
      if (store.readEvents) return store.readEvents(id, afterSeq);
      return (logs.get(id)?.events ?? []).filter((stored) => stored.seq > afterSeq);
    },
    changed(id, timeoutMs) {
      return new Promise((resolve) => {
        const log = logOf(id);
        const timer = setTimeout(done, timeoutMs);
        timer.unref?.();
        function done() {
          clearTimeout(timer);
          log.waiters.delete(done);
          resolve();
        }
        log.waiters.add(done);
      });
    },
    wake,
    flush: async () => {
      await durable?.flush();
    },
  };
}
