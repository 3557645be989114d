import type { ExperimentSummary, TrialRecord } from './experiment-types.js';
import { summaryTally } from './summary-tally.js';

/**
 * Folds trials (from a store, or a list) into the summary. Only a few numbers per trial are held, never
 * the records, so 10,000 cases fold in a few megabytes. `runExperiment` folds its trials as they finish
 * instead (`summaryTally`), and reads the store only to resume.
 */
export async function summarizeTrials(
  trials: AsyncIterable<TrialRecord> | Iterable<TrialRecord>,
  options: { trials: number; durationMs: number; seed?: number },
): Promise<ExperimentSummary> {
  const tally = summaryTally(options.trials);
  for await (const t of trials) tally.add(t);
  return tally.summary(options);
}
