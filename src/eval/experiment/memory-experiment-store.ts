import type {
  Experiment,
  ExperimentMeta,
  ExperimentStore,
  ExperimentSummary,
  TrialRecord,
} from './experiment-types.js';
import { trialKey } from './experiment-types.js';

/** Experiments kept in this process only (the default when no store is given). */
export function memoryExperimentStore(): ExperimentStore {
  const experiments = new Map<
    string,
    { meta: ExperimentMeta; summary?: ExperimentSummary; trials: Map<string, TrialRecord> }
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
    async saveTrial(id, trial) {
      get(id).trials.set(trialKey(trial.caseIndex, trial.trial), trial);
    },
    async finishedTrials(id) {
      return new Set(experiments.get(id)?.trials.keys());
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
