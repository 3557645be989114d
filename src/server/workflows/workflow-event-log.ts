import { type AgentEvent, redactedIfSecret } from '../../core/index.js';
import type { WorkflowStore } from '../../workflow/index.js';
import { createDeltaRedactor } from '../runs/index.js';

/** How long events wait to be written with the next ones: one commit per tick of a busy run, not per event. */
const DEFAULT_FLUSH_MS = 50;
/** After a failed write (the store is down), the next try waits this long. */
const RETRY_MS = 1000;
/** Events a run may have waiting through an outage; later ones are dropped (and said so once). */
const MAX_PENDING = 10_000;

/**
 * A workflow run's events on their way to the store, redacted as the run stores redact theirs (a
 * credential streamed across deltas included), gathered for `flushMs` and appended in one commit per
 * run. A killed process loses at most the last `flushMs` of events, never a checkpoint.
 */
export interface WorkflowEventLog {
  add(runId: string, event: AgentEvent): void;
  /** Writes what is gathered; resolves once it is committed (errors go to `onError`, the events are kept for the next flush). */
  flush(): Promise<void>;
}

export interface WorkflowEventLogOptions {
  store: Required<Pick<WorkflowStore, 'appendEvents'>>;
  flushMs?: number;
  /** Told after each commit, with the runs it wrote events of. */
  onWritten?: (runIds: string[]) => void;
  onError?: (error: unknown) => void;
}

export function createWorkflowEventLog(options: WorkflowEventLogOptions): WorkflowEventLog {
  const { store } = options;
  const flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
  const deltas = createDeltaRedactor();
  let pending = new Map<string, AgentEvent[]>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const write = async () => {
    timer = undefined;
    const batch = pending;
    pending = new Map();
    const written: string[] = [];
    for (const [runId, events] of batch) {
      try {
        await store.appendEvents(runId, events);
        written.push(runId);
      } catch (error) {
        // Kept, in order, ahead of what came since: the next flush tries again.
        pending.set(runId, [...events, ...(pending.get(runId) ?? [])]);
        options.onError?.(error);
      }
    }
    if (written.length > 0) options.onWritten?.(written);
    if (pending.size > 0) schedule(RETRY_MS);
  };
  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => {
      writing = writing.then(write);
    }, ms);
    timer.unref?.();
  };

  return {
    add(runId, event) {
      const list = pending.get(runId) ?? [];
      pending.set(runId, list);
      for (const safe of deltas.next(event)) {
        if (list.length < MAX_PENDING) list.push(redactedIfSecret(safe));
        else if (list.length === MAX_PENDING) {
          list.push(redactedIfSecret(safe));
          options.onError?.(new Error(`workflow run ${runId}: events are dropped until the store takes writes again`));
        }
      }
      schedule(flushMs);
    },
    flush() {
      if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      writing = writing.then(write);
      return writing;
    },
  };
}
