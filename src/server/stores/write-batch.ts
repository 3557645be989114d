import type { Checkpoint } from '../../agent/index.js';
import { type AgentEvent, redactedIfSecret, redactedJson, runSoon, withFields } from '../../core/index.js';
import type { RunPatch, RunRecord, RunStore } from '../records/index.js';

/** Writes gathered during one tick, committed together in one transaction. */
export interface WriteBatch {
  creates: RunRecord[];
  /** Patches merged per run, applied after the creates. */
  patches: Map<string, RunPatch>;
  events: { runId: string; seq: number; event: AgentEvent }[];
  /** Only the latest checkpoint of each run is written. */
  checkpoints: Map<string, Checkpoint>;
  /** Runs created with an outbox row (queue mode): their job is still to be added. */
  outbox: string[];
  /** Runs whose job was added: their outbox rows go. */
  enqueued: string[];
}

export interface WriteBatcher {
  /** Adds writes to the open batch; resolves once that batch is committed. */
  add(write: (batch: WriteBatch) => void): Promise<void>;
  /** Resolves once every write added so far is committed. */
  flush(): Promise<void>;
}

function emptyBatch(): WriteBatch {
  return { creates: [], patches: new Map(), events: [], checkpoints: new Map(), outbox: [], enqueued: [] };
}

/*
 * The run stores' one redaction policy: everything a store is given passes through here first and is
 * redacted as a `--trace` file is (`redactedIfSecret`: credential shapes and secret-named fields become
 * `[redacted]`), so no row, block, checkpoint or step a store writes holds a secret, and every read,
 * API answer and CLI view shows the redacted copy. The run itself keeps its own values in memory; only
 * a run that starts over from the store (a queue worker, a resume after a crash) sees the redacted ones.
 */

/**
 * Queues one event, redacted: the SSE stream, the trace download, the export and replay all read this
 * copy, and compact requests are built on it.
 */
export function addEvent(batcher: WriteBatcher, runId: string, seq: number, event: AgentEvent): Promise<void> {
  const safe = redactedIfSecret(event);
  return batcher.add((batch) => batch.events.push({ runId, seq, event: safe }));
}

/**
 * Queues a new run, redacted: its input, history (a chat request's system message) and any result.
 * With `outbox`, its outbox row goes in the same commit (queue mode: the job is still to be added).
 */
export function addRun(batcher: WriteBatcher, run: RunRecord, options: { outbox?: boolean } = {}): Promise<void> {
  const safe = redactedIfSecret(run);
  return batcher.add((batch) => {
    batch.creates.push(safe);
    if (options.outbox) batch.outbox.push(safe.id);
  });
}

/** Queues a change of a run, redacted: its result (input, tool arguments, output) and its questions. */
export function addPatch(batcher: WriteBatcher, id: string, patch: RunPatch): Promise<void> {
  const safe = redactedIfSecret(patch);
  return batcher.add((batch) => mergePatch(batch, id, safe));
}

/**
 * Queues a checkpoint with everything but its steps redacted; each step is redacted as it is written
 * (`storedStepJson`), once, since a checkpoint repeats every earlier step.
 */
export function addCheckpoint(batcher: WriteBatcher, checkpoint: Checkpoint): Promise<void> {
  const { steps, input, ...head } = checkpoint;
  const safe: Checkpoint = { ...checkpoint, ...redactedIfSecret(head), input: redactedInput(input), steps };
  return batcher.add((batch) => batch.checkpoints.set(checkpoint.runId, safe));
}

/** What a batched store queues for its next commit: runs, their changes, events and checkpoints (each redacted). */
export type BatchedWrites = Pick<RunStore, 'createRun' | 'updateRun' | 'appendEvent' | 'saveCheckpoint'>;

/** The writes of a store whose commits `batcher` gathers: one per tick, whatever the store. */
export function batchedWrites(batcher: WriteBatcher): BatchedWrites {
  return {
    createRun: (run) => addRun(batcher, run),
    updateRun: (id, patch) => addPatch(batcher, id, patch),
    appendEvent: (runId, seq, event) => addEvent(batcher, runId, seq, event),
    saveCheckpoint: (checkpoint) => addCheckpoint(batcher, checkpoint),
  };
}

/** The last input redacted, and how: a run writes a dozen checkpoints, each with the same input. */
let lastInput: { input: string; safe: string } | undefined;

function redactedInput(input: string): string {
  if (lastInput?.input !== input) lastInput = { input, safe: redactedIfSecret(input) };
  return lastInput.safe;
}

/** A checkpoint's step as the stores write it: its JSON, redacted. */
export function storedStepJson(step: Checkpoint['steps'][number]): string {
  return redactedJson(step);
}

/** Applies a patch on top of the patch already waiting for the same run. */
function mergePatch(batch: WriteBatch, id: string, patch: RunPatch): void {
  const before = batch.patches.get(id);
  batch.patches.set(id, before ? withFields(before, patch) : patch);
}

/**
 * Groups writes into commits, so thousands of events and checkpoints per second cost a few
 * transactions, not thousands. Commits run one after another, in order. A batch takes every write
 * made until its commit starts: the writes of its tick, and, while the commit before it is still
 * running (a round trip to a database server), those of the ticks that follow.
 */
export function createWriteBatcher(commit: (batch: WriteBatch) => Promise<void> | void): WriteBatcher {
  let open: { batch: WriteBatch; done: Promise<void> } | undefined;
  let previous: Promise<void> = Promise.resolve();

  function openBatch(): { batch: WriteBatch; done: Promise<void> } {
    const batch = emptyBatch();
    const opened = { batch, done: Promise.resolve() };
    const start = () => {
      // From here on, writes go to the next batch.
      if (open === opened) open = undefined;
      return commit(batch);
    };
    opened.done = new Promise<void>((resolve, reject) => {
      runSoon(() => {
        // Each commit waits for the one before it, so writes land in the order they were made.
        previous = previous.then(start, start);
        previous.then(resolve, reject);
      });
    });
    // A failed commit rejects every writer awaiting it; nobody awaiting must not crash the process.
    opened.done.catch(() => {});
    return opened;
  }

  return {
    add(write) {
      open ??= openBatch();
      write(open.batch);
      return open.done;
    },
    flush() {
      return open ? open.done : previous.catch(() => {});
    },
  };
}
