import type { Experiment, ExperimentMeta, ExperimentSummary, TrialRecord } from './experiment-types.js';

/** How many trials the SQL stores read per query. */
const TRIAL_PAGE = 500;

/** An experiment as the SQL stores keep it: the meta as JSON, the live status column, and the summary once finished. */
export interface ExperimentRow {
  meta: string;
  status: ExperimentMeta['status'];
  summary?: string | null;
}

/** A trial as earlier versions of the SQL stores kept it, one a row: its key columns and the record as JSON. */
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
    for (const row of rows) yield trialFromRow(row);
    if (rows.length < TRIAL_PAGE) return;
    const last = rows[rows.length - 1];
    after = [last.case_index, last.trial];
  }
}

/**
 * The compact keyed form earlier versions wrote, one trial a row (before the chunk rows of trial-chunks.ts):
 * one- and two-letter keys, without what the key columns hold (case index, trial) or the case id when it is
 * the default (the 1-based position).
 */
interface CompactTrial {
  i?: string;
  in: unknown;
  x?: unknown;
  o: string;
  s: TrialRecord['status'];
  e?: string;
  p: 0 | 1;
  sc: TrialRecord['scores'];
  n: number;
  l: number;
  pt: number;
  ct: number;
  $?: number;
  s$?: number;
  ms: number;
  r?: string;
}

/** A stored trial row's record: the compact keyed form (`CompactTrial`), or (rows stored before it) the record's own JSON. */
export function trialFromRow(row: TrialRow): TrialRecord {
  const stored = JSON.parse(row.record) as CompactTrial | TrialRecord;
  if ('caseIndex' in stored) return stored;
  const c = stored;
  const record: TrialRecord = {
    caseId: c.i ?? String(row.case_index + 1),
    caseIndex: row.case_index,
    trial: row.trial,
    input: c.in,
    output: c.o,
    status: c.s,
    pass: c.p === 1,
    scores: c.sc,
    steps: c.n,
    llmCalls: c.l,
    promptTokens: c.pt,
    completionTokens: c.ct,
    latencyMs: c.ms,
  };
  if ('x' in c) record.expected = c.x;
  if (c.e !== undefined) record.error = c.e;
  if (c.$ !== undefined) record.costUsd = c.$;
  if (c.s$ !== undefined) record.scorerCostUsd = c.s$;
  if (c.r !== undefined) record.runId = c.r;
  return record;
}
