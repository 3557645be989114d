import { errorMessage, type StepJournal } from '../../core/index.js';
import type { RunJournalEntry, RunJournalRecord, RunStore } from '../records/index.js';

/** The built-in engine's step journal of one run, with what the server needs around it. */
export interface RunStoreJournal extends StepJournal {
  /** Resolves the wait `answerId` (the key the run announced) and records the answer. */
  resolve(answerId: string, value: unknown): Promise<void>;
  /** Ends the wait `answerId` without an answer (the run stopped): nothing is recorded, a resume asks again. */
  reject(answerId: string, error: Error): void;
}

export interface RunStoreJournalOptions {
  store: RunStore;
  runId: string;
  /** The records the run wrote before (`store.readJournal`); none for a run that never started. */
  entries?: readonly RunJournalEntry[];
  /** The run's signal: a step that fails once it aborted (a shutdown) is not recorded, and runs again on resume. */
  signal?: AbortSignal;
  /** The loop step the run resumes at (its checkpoint's): seeds and times drawn before its first step is keyed there. */
  step?: number;
}

/**
 * The built-in engine's step journal (`thinkflow serve`, in-process or on a queue's workers): each
 * model call, tool call (code mode's nested calls included), answer, sleep, seed and time is a record
 * of the run store, written before the run goes on, and read back on resume instead of running again.
 *
 * The built-in engine resumes a run from its checkpoint (the finished steps, as the prompt's messages),
 * not from its first step, so records are found by their key (`<step>`, `<step>/<callId>`, the same on
 * every replay), not by their place in the run as Restate's and DBOS's journals are. Seeds, times and
 * sleeps are keyed by the loop step they were drawn in and their count within it.
 *
 * @example
 * const journal = runStoreJournal({ store, runId: run.id, entries: await store.readJournal(run.id) });
 * await agent.run(run.input, { runId: run.id, resume, journal });
 */
export function runStoreJournal(options: RunStoreJournalOptions): RunStoreJournal {
  const { store, runId } = options;
  const records = new Map<string, RunJournalRecord>();
  for (const entry of options.entries ?? []) records.set(entry.key, entry.record);
  const waiting = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let at = String(options.step ?? 0);
  let unkeyed = 0;
  // A step cut short by the run's stop (a shutdown, to resume later) did not end: it is not recorded.
  const stopped = () => options.signal?.aborted === true;
  const write = async (key: string, record: RunJournalRecord) => {
    records.set(key, record);
    await store.appendJournal(runId, { key, record });
  };
  const draw = drawnNumbers({ records, write, at: () => at });

  return {
    engine: 'builtin',
    async step(step, fn) {
      const key = step.key ?? `#${unkeyed++}`;
      if (step.key !== undefined) at = step.key.split('/')[0];
      const record = records.get(key);
      if (record?.type === 'step') {
        if (record.ok) return record.value as never;
        throw new Error(record.error);
      }
      let value: Awaited<ReturnType<typeof fn>>;
      try {
        value = await fn();
      } catch (error) {
        if (!stopped()) await write(key, { type: 'step', ok: false, error: errorMessage(error) });
        throw error;
      }
      if (stopped() && failedOutcome(value)) return value;
      // Kept as JSON, as it reads back: the first run and a replay see the same value.
      const json = JSON.parse(JSON.stringify(value ?? null));
      await write(key, { type: 'step', ok: true, value: json });
      return value;
    },
    async answer(key, announce) {
      const record = records.get(key);
      if (record?.type === 'answer') return record.value as never;
      const answered = new Promise<unknown>((resolve, reject) => waiting.set(key, { resolve, reject }));
      announce(key);
      return (await answered) as never;
    },
    async sleep(ms) {
      // Recorded as the time it ends at: a restart does not sleep again what already passed.
      const until = await draw('sleep', () => Date.now() + ms);
      const left = until - Date.now();
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    },
    seed: () => draw('seed', () => Math.floor(Math.random() * 2 ** 31)),
    now: () => draw('now', () => Date.now()),
    async resolve(answerId, value) {
      await write(answerId, { type: 'answer', value });
      // Recorded first: an answer that comes before the run waits for it is read from the record.
      const wait = waiting.get(answerId);
      waiting.delete(answerId);
      wait?.resolve(value);
    },
    reject(answerId, error) {
      const wait = waiting.get(answerId);
      waiting.delete(answerId);
      wait?.reject(error);
    },
  };
}

/**
 * Seeds, times and sleeps, each recorded at its first draw and read back on replay, keyed by the loop
 * step they were drawn in and their count within it (`seed@3#0`).
 */
function drawnNumbers(ctx: {
  records: Map<string, RunJournalRecord>;
  write: (key: string, record: RunJournalRecord) => Promise<void>;
  at: () => string;
}) {
  const drawn = new Map<string, number>();
  return async (kind: 'seed' | 'now' | 'sleep', make: () => number): Promise<number> => {
    const name = `${kind}@${ctx.at()}`;
    const count = drawn.get(name) ?? 0;
    drawn.set(name, count + 1);
    const key = `${name}#${count}`;
    const type = kind === 'seed' ? 'seed' : 'now';
    const record = ctx.records.get(key);
    if (record?.type === type) return record.value;
    const value = make();
    await ctx.write(key, { type, value });
    return value;
  };
}

/** A tool call's outcome as `runJournaledCall` records it, other than `ok`: what a stop cuts short. */
function failedOutcome(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !('type' in value) || !('attempts' in value)) return false;
  return value.type === 'error' || value.type === 'timeout' || value.type === 'aborted';
}
