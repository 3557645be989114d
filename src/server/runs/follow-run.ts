import { yieldTurn } from '../../core/index.js';
import type { AnswerPart, AnswerPartReader } from '../../protocols/index.js';
import { isFinished, type RunRecord, type RunService, type StoredEvent } from '../records/index.js';

/** Polls `get` until the run ended, sleeping on `changed` in between. */
export async function waitForEnd(
  service: Pick<RunService, 'get' | 'changed'>,
  id: string,
  signal?: AbortSignal,
): Promise<RunRecord | undefined> {
  for (;;) {
    const run = await service.get(id);
    if (!run || isFinished(run.status) || signal?.aborted) return run;
    await service.changed(id, 250);
  }
}

/** A sleep until a run's next change, armed before the read it follows. */
export interface ChangeWatch {
  /** Starts listening (if not listening already): call it before reading the run. */
  arm(): void;
  /** Resolves at the first change since `arm` (at once if one came already), or after the timeout. */
  sleep(): Promise<void>;
}

/**
 * Listens for a run's changes from before a read to the sleep after it. Listening only once the read
 * found nothing loses a change signalled in between (an event committed while the status was read), and
 * the follower then sleeps a whole timeout with the event in the log: a streamed answer stalls.
 */
export function watchChanges(service: Pick<RunService, 'changed'>, id: string, timeoutMs: number): ChangeWatch {
  let armed: Promise<void> | undefined;
  const arm = () => {
    armed ??= service.changed(id, timeoutMs).then(() => {
      armed = undefined;
    });
  };
  return {
    arm,
    async sleep() {
      arm();
      await armed;
    },
  };
}

/**
 * A run's logged events after `after`, in order, as they are committed, a page (up to 1000) at a
 * time. Ends after the run's own `run_end`, once the run has ended with nothing left to read, or
 * when `stopped()` says so. Between pages the event loop serves everyone else: a long log read by
 * many clients at once must not hold the server for the time it takes them all.
 */
export async function* followEventPages(
  service: Pick<RunService, 'events' | 'changed' | 'status'>,
  id: string,
  after: number,
  stopped: () => boolean = () => false,
): AsyncGenerator<StoredEvent[]> {
  const watch = watchChanges(service, id, 1000);
  while (!stopped()) {
    watch.arm();
    const events = await service.events(id, after);
    const end = events.findIndex((stored) => stored.event.type === 'run_end' && stored.event.runId === id);
    if (end >= 0) {
      yield events.slice(0, end + 1);
      return;
    }
    if (events.length > 0) {
      yield events;
      after = events[events.length - 1].seq;
      await yieldTurn();
      continue;
    }
    const status = await service.status(id);
    // Events are committed before the final status, so an ended run with nothing left to read is done.
    if (!status || isFinished(status)) return;
    await watch.sleep();
  }
}

/** `followEventPages`, one event at a time. */
export async function* followEvents(
  service: Pick<RunService, 'events' | 'changed' | 'status'>,
  id: string,
  after: number,
  stopped: () => boolean = () => false,
): AsyncGenerator<StoredEvent> {
  for await (const page of followEventPages(service, id, after, stopped)) yield* page;
}

/**
 * A run's answer parts after `after`, as `reader` reads its events, until the run ends or `stopped`:
 * what every client protocol's stream writes in its own wire format.
 */
export async function* followAnswerParts(
  service: Pick<RunService, 'events' | 'changed' | 'status'>,
  follow: { runId: string; after: number; reader: AnswerPartReader },
  stopped: () => boolean,
): AsyncGenerator<AnswerPart> {
  for await (const { event } of followEvents(service, follow.runId, follow.after, stopped))
    yield* follow.reader.read(event);
}
