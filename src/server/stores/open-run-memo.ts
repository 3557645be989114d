import type { Checkpoint } from '../../agent/index.js';
import { isFinished } from '../records/index.js';
import { createRequestCompactor, type RequestCompactor } from './compact-requests.js';
import { createStringSharer, type StringSharer } from './shared-strings.js';
import type { WriteBatch } from './write-batch.js';

/** A checkpoint as stored: its steps are rows of `run_steps` (older rows still hold `steps` inline). */
export type StoredCheckpoint = Omit<Checkpoint, 'steps'> & { stepCount?: number; steps?: Checkpoint['steps'] };

/**
 * What a SQL run store knows of its open runs between commits (as far as this process knows), so a
 * commit writes only what is new: the steps `run_steps` holds already, each run's last model_request
 * (the next one is stored as what changed), and its long strings (a later copy is stored as a
 * reference). The SQLite and PostgreSQL stores keep it alike; only their SQL differs.
 */
export interface OpenRunMemo {
  stepsStored: Map<string, number>;
  requests: RequestCompactor;
  strings: StringSharer;
  /** A commit rolled back: what is stored of each run is no longer known; the next checkpoints write it all. */
  reset(): void;
  /** Forgets the runs a committed batch ended (an ended run writes no more checkpoints); returns their ids. */
  forgetEnded(batch: WriteBatch): string[];
  /**
   * The run's checkpoint from its stored JSON (undefined when there is none), its steps read by
   * `loadSteps` from their rows, or inline in one written before steps had rows.
   */
  readCheckpoint(
    runId: string,
    json: string | undefined,
    loadSteps: (count: number) => Promise<string[]> | string[],
  ): Promise<Checkpoint | undefined>;
}

export function openRunMemo(): OpenRunMemo {
  const memo: OpenRunMemo = {
    stepsStored: new Map(),
    requests: createRequestCompactor(),
    strings: createStringSharer(),
    reset() {
      memo.stepsStored.clear();
      memo.requests.reset();
      memo.strings.reset();
    },
    forgetEnded(batch) {
      const ended: string[] = [];
      for (const [id, patch] of batch.patches) {
        if (!patch.status || !isFinished(patch.status)) continue;
        memo.stepsStored.delete(id);
        memo.requests.forget(id);
        memo.strings.forget(id);
        ended.push(id);
      }
      return ended;
    },
    async readCheckpoint(runId, json, loadSteps) {
      if (json === undefined) {
        memo.stepsStored.set(runId, 0);
        return undefined;
      }
      const { stepCount = 0, steps: inline, ...rest } = JSON.parse(json) as StoredCheckpoint;
      if (inline) {
        // Written before steps had their own rows: the next checkpoint writes them all.
        memo.stepsStored.set(runId, 0);
        return { ...rest, steps: inline };
      }
      const steps = (await loadSteps(stepCount)).map((step) => JSON.parse(step));
      memo.stepsStored.set(runId, stepCount);
      return { ...rest, steps };
    },
  };
  return memo;
}
