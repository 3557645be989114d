import type {
  Experiment,
  ExperimentMeta,
  ExperimentStore,
  ExperimentSummary,
  TrialRecord,
} from './experiment-types.js';
import { trialKey } from './experiment-types.js';

/**
 * What a save returns: the trial is kept at once, so every save answers with this one settled promise
 * (and `runExperiment`, seeing it, counts the trial finished without waiting on it).
 */
export const SAVED = Promise.resolve();

const byKey = (a: TrialRecord, b: TrialRecord) => a.caseIndex - b.caseIndex || a.trial - b.trial;

/**
 * The trials in case-then-trial order, each once: of the copies of a trial saved again, the last saved.
 * (`sort` is stable, so the copies of a trial stay in the order they were saved.)
 */
function latest(saved: readonly TrialRecord[]): TrialRecord[] {
  const sorted = [...saved].sort(byKey);
  return sorted.filter((t, i) => i === sorted.length - 1 || byKey(t, sorted[i + 1]) !== 0);
}

/**
 * Experiments kept in this process only (the default when no store is given). A save appends the trial
 * to its experiment's list (a trial saved again is read as its last copy), so saving costs next to nothing.
 */
export function memoryExperimentStore(): ExperimentStore {
  const experiments = new Map<string, { meta: ExperimentMeta; summary?: ExperimentSummary; trials: TrialRecord[] }>();
  const get = (id: string) => {
    const found = experiments.get(id);
    if (!found) throw new Error(`No experiment ${id} in this store.`);
    return found;
  };
  return {
    async createExperiment(meta) {
      experiments.set(meta.id, { meta: { ...meta }, trials: [] });
    },
    async getExperiment(id) {
      const found = experiments.get(id);
      return (
        found && (found.summary ? ({ meta: found.meta, summary: found.summary } as Experiment) : { meta: found.meta })
      );
    },
    saveTrial(id, trial) {
      try {
        get(id).trials.push(trial);
      } catch (error) {
        return Promise.reject(error);
      }
      return SAVED;
    },
    async finishedTrials(id) {
      const keys = new Set<string>();
      for (const t of experiments.get(id)?.trials ?? []) keys.add(trialKey(t.caseIndex, t.trial));
      return keys;
    },
    async *trials(id) {
      const found = get(id);
      // The copies saved again are dropped once read.
      found.trials = latest(found.trials);
      yield* [...found.trials];
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
