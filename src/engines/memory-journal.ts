import { errorMessage, type JournalStep, type StepJournal } from '../core/index.js';

/** One entry of a `memoryJournal`: a step's value or failure, an answer, a seed, a time. */
export type JournalRecord =
  /** A step that started and had not ended when the records were taken: a replay runs it again. */
  | { type: 'step'; step: JournalStep; state: 'started' }
  | { type: 'step'; step: JournalStep; state: 'ended'; ok: true; value: unknown }
  | { type: 'step'; step: JournalStep; state: 'ended'; ok: false; error: string }
  /** An answer the run was waiting for when the records were taken: a replay waits again. */
  | { type: 'answer'; key: string; state: 'waiting' }
  | { type: 'answer'; key: string; state: 'answered'; value: unknown }
  | { type: 'seed'; value: number }
  | { type: 'now'; value: number };

/** A journal kept in memory, with the records it has and a way to answer what it waits for. */
export interface MemoryJournal extends StepJournal {
  /** Every record so far, in order (JSON): pass them to a new journal to replay the run. */
  readonly records: readonly JournalRecord[];
  /** Resolves the wait `answerId` (the key the run announced). */
  resolve(answerId: string, value: unknown): void;
}

/**
 * The step journal's reference implementation, in memory: records each step, answer, seed and time in
 * order, and given the records of an earlier run, replays them (without running the steps) until they
 * run out. Use it to test an agent against replay (run, drop the process, run again from the records)
 * the way Restate and DBOS will run it; persist `records` for a journal that survives a restart.
 *
 * @example
 * const first = memoryJournal();
 * await runJournaled(agent, 'task', first, { runId: 'r1' });
 * const replay = memoryJournal({ records: first.records }); // no model or tool call runs again
 */
export function memoryJournal(options: { records?: readonly JournalRecord[] } = {}): MemoryJournal {
  const records: JournalRecord[] = [];
  const earlier = options.records ?? [];
  const waiting = new Map<string, (value: unknown) => void>();
  const answered = new Map<string, unknown>();
  const replayed = <T extends JournalRecord['type']>(type: T): Extract<JournalRecord, { type: T }> | undefined => {
    const record = earlier[records.length];
    if (!record) return undefined;
    if (record.type !== type) {
      throw new Error(`The run diverged from its journal at entry ${records.length + 1}: ${record.type}, now ${type}.`);
    }
    records.push(record);
    return record as Extract<JournalRecord, { type: T }>;
  };

  return {
    engine: 'memory',
    records,
    async step(step, fn) {
      const record = replayed('step');
      if (record && record.step.key !== undefined && step.key !== undefined && record.step.key !== step.key) {
        throw new Error(
          `The run diverged from its journal at entry ${records.length}: step ${record.step.key} (${record.step.name}), now ${step.key} (${step.name}).`,
        );
      }
      if (record?.state === 'ended') {
        if (record.ok) return record.value as never;
        throw new Error(record.error);
      }
      // Reserved before it runs, so parallel steps keep the order they started in.
      const index = record ? records.length - 1 : records.length;
      records[index] = { type: 'step', step, state: 'started' };
      try {
        const value = await fn();
        const json = JSON.parse(JSON.stringify(value ?? null));
        records[index] = { type: 'step', step, state: 'ended', ok: true, value: json };
        return value;
      } catch (error) {
        records[index] = { type: 'step', step, state: 'ended', ok: false, error: errorMessage(error) };
        throw error;
      }
    },
    async answer(key, announce) {
      const record = replayed('answer');
      if (record?.state === 'answered') return record.value as never;
      const index = record ? records.length - 1 : records.length;
      records[index] = { type: 'answer', key, state: 'waiting' };
      announce(key);
      const value = answered.has(key)
        ? answered.get(key)
        : await new Promise((resolve) => {
            waiting.set(key, resolve);
          });
      records[index] = { type: 'answer', key, state: 'answered', value };
      return value as never;
    },
    async sleep(ms) {
      // A sleep is recorded as the time it ends at: a replay does not sleep again what already passed.
      const record = replayed('now');
      const until = record ? record.value : Date.now() + ms;
      if (!record) records.push({ type: 'now', value: until });
      const left = until - Date.now();
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    },
    async seed() {
      const record = replayed('seed');
      if (record) return record.value;
      const value = Math.floor(Math.random() * 2 ** 31);
      records.push({ type: 'seed', value });
      return value;
    },
    async now() {
      const record = replayed('now');
      if (record) return record.value;
      const value = Date.now();
      records.push({ type: 'now', value });
      return value;
    },
    resolve(answerId, value) {
      const resolve = waiting.get(answerId);
      waiting.delete(answerId);
      if (resolve) resolve(value);
      else answered.set(answerId, value);
    },
  };
}
