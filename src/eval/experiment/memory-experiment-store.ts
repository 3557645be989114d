import type {
  Experiment,
  ExperimentMeta,
  ExperimentStore,
  ExperimentSummary,
  TrialRecord,
} from './experiment-types.js';
import { trialKey } from './experiment-types.js';
import { ChunkBuilder, type ChunkEntry, orderedChunkTrials } from './trial-chunks.js';

/**
 * What a save returns: the trial is kept at once, so every save answers with this one settled promise
 * (and `runExperiment`, seeing it, counts the trial finished without waiting on it).
 */
export const SAVED = Promise.resolve();

/** Trials a chunk holds before it is written out as its JSON. */
const CHUNK_TRIALS = 1_024;

/** One experiment kept in memory: its trials as the SQL stores keep them, chunks of JSON, and the chunk being filled. */
interface Kept {
  meta: ExperimentMeta;
  summary?: ExperimentSummary;
  chunks: string[];
  /** Each chunk's lowest case index, by chunk number. */
  firstCases: number[];
  filling: ChunkBuilder | undefined;
}

/** Writes out the chunk being filled. */
function seal(kept: Kept): void {
  if (!kept.filling) return;
  kept.chunks.push(kept.filling.json());
  kept.firstCases.push(kept.filling.firstCase);
  kept.filling = undefined;
}

/** The experiment's trials by case then trial, each once (a trial saved again is read as its last copy). */
function trialsOf(kept: Kept): AsyncIterable<TrialRecord> {
  seal(kept);
  const list = (): ChunkEntry[] =>
    kept.firstCases.map((firstCase, chunk) => ({ chunk, firstCase })).sort((a, b) => a.firstCase - b.firstCase);
  return orderedChunkTrials(list, (chunk) => kept.chunks[chunk]);
}

/**
 * Experiments kept in this process only (the default when no store is given). A save adds the trial to
 * the chunk being filled, as the SQL stores do before their commit, and every 1,024 trials the chunk is
 * written out as one JSON string: a finished experiment holds a string per 1,024 trials, not the records
 * (records held to its end cost the collector about 1 µs a trial of a 10 µs agent run). Trials read back
 * as JSON makes them, as from the other stores.
 */
export function memoryExperimentStore(): ExperimentStore {
  const experiments = new Map<string, Kept>();
  const get = (id: string) => {
    const found = experiments.get(id);
    if (!found) throw new Error(`No experiment ${id} in this store.`);
    return found;
  };
  return {
    async createExperiment(meta) {
      experiments.set(meta.id, { meta: { ...meta }, chunks: [], firstCases: [], filling: undefined });
    },
    async getExperiment(id) {
      const found = experiments.get(id);
      return (
        found && (found.summary ? ({ meta: found.meta, summary: found.summary } as Experiment) : { meta: found.meta })
      );
    },
    saveTrial(id, trial) {
      let kept: Kept;
      try {
        kept = get(id);
      } catch (error) {
        return Promise.reject(error);
      }
      if (!kept.filling) kept.filling = new ChunkBuilder(trial);
      else kept.filling.add(trial);
      if (kept.filling.size >= CHUNK_TRIALS) seal(kept);
      return SAVED;
    },
    async finishedTrials(id) {
      const keys = new Set<string>();
      const kept = experiments.get(id);
      if (kept) for await (const t of trialsOf(kept)) keys.add(trialKey(t.caseIndex, t.trial));
      return keys;
    },
    async *trials(id) {
      yield* trialsOf(get(id));
    },
    async finishExperiment(id, summary) {
      const found = get(id);
      seal(found);
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
