import type {
  Experiment,
  ExperimentMeta,
  ExperimentStore,
  ExperimentSummary,
  TrialRecord,
} from './experiment-types.js';
import { trialKey } from './experiment-types.js';

/** What a save returns: the trial is kept at once, so every save answers with this one settled promise. */
const SAVED = Promise.resolve();

/** A trial's key in the map: case index and trial number in one number (trials below 2^20 a case). */
const keyOf = (caseIndex: number, trial: number) => caseIndex * 2 ** 20 + trial;

/** Experiments kept in this process only (the default when no store is given). */
export function memoryExperimentStore(): ExperimentStore {
  const experiments = new Map<
    string,
    { meta: ExperimentMeta; summary?: ExperimentSummary; trials: Map<number, TrialRecord> }
  >();
  const get = (id: string) => {
    const found = experiments.get(id);
    if (!found) throw new Error(`No experiment ${id} in this store.`);
    return found;
  };
  return {
    async createExperiment(meta) {
      experiments.set(meta.id, { meta: { ...meta }, trials: new Map() });
    },
    async getExperiment(id) {
      const found = experiments.get(id);
      return (
        found && (found.summary ? ({ meta: found.meta, summary: found.summary } as Experiment) : { meta: found.meta })
      );
    },
    saveTrial(id, trial) {
      try {
        get(id).trials.set(keyOf(trial.caseIndex, trial.trial), trial);
      } catch (error) {
        return Promise.reject(error);
      }
      return SAVED;
    },
    async finishedTrials(id) {
      const keys = new Set<string>();
      for (const t of experiments.get(id)?.trials.values() ?? []) keys.add(trialKey(t.caseIndex, t.trial));
      return keys;
    },
    async *trials(id) {
      const all = [...get(id).trials.values()].sort((a, b) => a.caseIndex - b.caseIndex || a.trial - b.trial);
      yield* all;
    },
    async finishExperiment(id, summary) {
      const found = get(id);
      found.summary = summary;
      found.meta.status = 'done';
    },
    async listExperiments(limit = 50) {
      return [...experiments.values()]
        .map((e) => e.meta)
        .reverse()
        .slice(0, limit);
    },
  };
}
