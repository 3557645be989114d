import type { ToolCallRecord } from '../../core/index.js';
import type { NestedJournal } from '../../tools/index.js';
import type { Checkpoint } from './agent-options.js';
import type { RunState } from './run-state.js';

/** A step whose reply was read and whose calls are running (or about to). */
export type PendingStep = NonNullable<Checkpoint['pending']>;

/**
 * Writes a run's checkpoints through the run's `onCheckpoint`. Between two awaited checkpoints (before
 * each model call, before a step's tools run) it writes the step again each time one of its calls ends,
 * so a crash keeps every finished call: on resume it is neither run again nor reported as interrupted.
 */
export interface Checkpointer {
  /** Writes the run's state and waits for it; first fails with any earlier write that failed. */
  save(state: RunState): Promise<void>;
  /** Writes the run's state with `pending` as the running step and waits for it. */
  saveStep(state: RunState, pending: PendingStep): Promise<void>;
  /**
   * Adds a call of the running step as finished and writes the step again, without waiting (the next
   * `save` waits, and fails if this write failed). Records are copied: later changes to them are not written.
   */
  callEnded(state: RunState, record: ToolCallRecord): void;
  /**
   * Writes the run's state with its final answer, without waiting: a store that batches commits it
   * with the `final` event, so after a crash either both are stored (a resume ends with that answer)
   * or neither (the model is asked again, and the log holds one answer).
   */
  finalReached(state: RunState, final: NonNullable<Checkpoint['final']>): void;
  /** Marks a call of the running step as waiting (for approval or a free slot: not started), without waiting. */
  callWaits(state: RunState, callId: string): void;
  /**
   * Unmarks a call that waited before it starts, and resolves once that is written: from then on a
   * resume must assume it ran. Rejects (and the call does not run) when the write fails.
   */
  callStarts(state: RunState, callId: string): Promise<void>;
  /**
   * Writes the journal of a running call's nested calls (code mode) with the step, and resolves once
   * that is written. Copied: later changes to it are not written.
   */
  nestedChanged(state: RunState, callId: string, journal: NestedJournal): Promise<void>;
}

/** A checkpointer for a run with `onCheckpoint`, or undefined when nobody keeps checkpoints. */
export function createCheckpointer(
  onCheckpoint: ((checkpoint: Checkpoint) => void | Promise<void>) | undefined,
): Checkpointer | undefined {
  if (!onCheckpoint) return undefined;
  let pending: PendingStep | undefined;
  let failed: { error: unknown } | undefined;
  const background: Promise<void>[] = [];

  const throwIfFailed = () => {
    if (failed) throw failed.error;
  };
  const write = async (state: RunState, step: PendingStep | undefined) => {
    throwIfFailed();
    const earlier = background.splice(0);
    // Written before waiting for the earlier writes, so a store that batches commits them together;
    // one of them that failed fails the run here.
    const written = Promise.resolve(onCheckpoint(checkpointOf(state, step)));
    if (earlier.length > 0) {
      // Awaited below unless an earlier failure is thrown first: it must not go unhandled then.
      written.catch(() => {});
      await Promise.all(earlier);
      throwIfFailed();
    }
    await written;
  };

  /** Writes the running step as `step` now; a failure fails the next `save`, and the returned promise. */
  const rewrite = (state: RunState, step: PendingStep): Promise<void> => {
    pending = step;
    let written: void | Promise<void>;
    try {
      written = onCheckpoint(checkpointOf(state, step));
    } catch (error) {
      failed ??= { error };
      return Promise.reject(error);
    }
    if (!(written instanceof Promise)) return Promise.resolve();
    background.push(
      written.catch((error: unknown) => {
        failed ??= { error };
      }),
    );
    return written;
  };

  return {
    save(state) {
      pending = undefined;
      return write(state, undefined);
    },
    saveStep(state, step) {
      pending = step;
      return write(state, step);
    },
    callEnded(state, record) {
      if (!pending) return;
      // A failure is kept in `failed` for the next save.
      rewrite(state, { ...pending, done: [...pending.done, { ...record }] }).catch(() => {});
    },
    finalReached(state, final) {
      pending = undefined;
      const checkpoint = checkpointOf(state);
      checkpoint.final = final;
      // Nothing saves after it: a failure only means a resume asks the model again, and the run's
      // end, written next to the same store, reports a store that fails.
      background.push(
        Promise.resolve()
          .then(() => onCheckpoint(checkpoint))
          .catch((error: unknown) => {
            failed ??= { error };
          }),
      );
    },
    callWaits(state, callId) {
      if (!pending) return;
      rewrite(state, { ...pending, waiting: [...(pending.waiting ?? []), callId] }).catch(() => {});
    },
    nestedChanged(state, callId, journal) {
      if (!pending) return Promise.resolve();
      const copy = { ...journal, calls: journal.calls.map((c) => ({ ...c })) };
      return rewrite(state, { ...pending, nested: { ...pending.nested, [callId]: copy } });
    },
    callStarts(state, callId) {
      if (!pending?.waiting?.includes(callId)) return Promise.resolve();
      return rewrite(state, { ...pending, waiting: pending.waiting.filter((id) => id !== callId) });
    },
  };
}

/**
 * The run's state as a checkpoint. The steps are copied: a store may serialize the checkpoint a tick
 * later, when the running step may already be among them, and a step must never be both.
 */
export function checkpointOf(state: RunState, pending?: PendingStep): Checkpoint {
  const checkpoint: Checkpoint = {
    runId: state.runId,
    input: state.input,
    steps: state.steps.slice(),
    usage: { ...state.usage },
    stats: { ...state.stats },
  };
  if (pending) checkpoint.pending = pending;
  if (state.forkedFrom) checkpoint.forkedFrom = state.forkedFrom;
  if (state.edited) checkpoint.edited = state.edited;
  if (state.context) checkpoint.context = state.context;
  return checkpoint;
}
