import type { Experiment, ExperimentMeta, ExperimentSummary, TrialRecord } from './experiment-types.js';

/** How many trials the SQL stores read per query. */
const TRIAL_PAGE = 500;

/** An experiment as the SQL stores keep it: the meta as JSON, the live status column, and the summary once finished. */
export interface ExperimentRow {
  meta: string;
  status: ExperimentMeta['status'];
  summary?: string | null;
}

/** A trial as the SQL stores keep it: its key columns and the record as JSON. */
export interface TrialRow {
  case_index: number;
  trial: number;
  record: string;
}

/** The meta of a row; the status column (updated when the experiment finishes) wins over the JSON's. */
export function metaFromRow(row: ExperimentRow): ExperimentMeta {
  return { ...(JSON.parse(row.meta) as ExperimentMeta), status: row.status };
}

/** A row as `getExperiment` returns it: with its summary once the experiment has finished. */
export function experimentFromRow(row: ExperimentRow): Experiment | { meta: ExperimentMeta } {
  const meta = metaFromRow(row);
  return row.summary ? { meta, summary: JSON.parse(row.summary) as ExperimentSummary } : { meta };
}

/**
 * Every trial, ordered by case then trial, read a page at a time: `readPage(after, limit)` returns at most
 * `limit` rows ordered after the key `after` (`[-1, -1]` at first), so a page never skips or repeats a trial.
 */
export async function* pagedTrials(
  readPage: (after: [caseIndex: number, trial: number], limit: number) => TrialRow[] | Promise<TrialRow[]>,
): AsyncIterable<TrialRecord> {
  let after: [number, number] = [-1, -1];
  for (;;) {
    const rows = await readPage(after, TRIAL_PAGE);
    for (const row of rows) yield JSON.parse(row.record) as TrialRecord;
    if (rows.length < TRIAL_PAGE) return;
    const last = rows[rows.length - 1];
    after = [last.case_index, last.trial];
  }
}
