import type { ScoreResult } from '../scorers/scorer.js';
import type { TrialRecord } from './experiment-types.js';

/**
 * Chunk rows as the SQL stores wrote them first (#47, `"v":1`), still read: the trials committed
 * together, as one JSON document `{"v":1,"s":[scorer names],"r":run id start,"t":[trial, …]}`. A trial
 * is an array:
 *
 *   [caseIndex, trial, flags, input, output, status, scores, steps, llmCalls, promptTokens,
 *    completionTokens, latencyMs, …the optional fields set in `flags`, in the order of the bits]
 *
 * `flags`: 1 passed, 2 a case id other than the 1-based position, 4 expected (set, not undefined),
 * 8 error, 16 costUsd, 32 scorerCostUsd, 64 runId (always the last field, written without the start `r`
 * that every run id of the row shares). A score is its number when it is `{ name, score, pass: score >= 1 }`
 * with the name at its position in `s`, else the score object itself. (Rows are written as `"v":2`
 * now: trial-chunks.ts.)
 */
const PASS = 1;
const CASE_ID = 2;
const EXPECTED = 4;
const ERROR = 8;
const COST = 16;
const SCORER_COST = 32;
const RUN_ID = 64;

/** The fixed fields before the optional ones. */
const FIXED = 12;

/** The trials of a `"v":1` chunk row, parsed, in the order they were written. */
export function trialsFromChunkV1(row: { s: string[]; t: unknown[][]; r?: string }): TrialRecord[] {
  const { s: names, t: tuples, r = '' } = row;
  return tuples.map((u) => {
    const flags = u[2] as number;
    const record: TrialRecord = {
      caseId: '',
      caseIndex: u[0] as number,
      trial: u[1] as number,
      input: u[3],
      output: u[4] as string,
      status: u[5] as TrialRecord['status'],
      pass: (flags & PASS) !== 0,
      scores: (u[6] as (ScoreResult | number)[]).map((s, j) =>
        typeof s === 'number' ? { name: names[j], score: s, pass: s >= 1 } : s,
      ),
      steps: u[7] as number,
      llmCalls: u[8] as number,
      promptTokens: u[9] as number,
      completionTokens: u[10] as number,
      latencyMs: u[11] as number,
    };
    let at = FIXED;
    record.caseId = flags & CASE_ID ? (u[at++] as string) : String(record.caseIndex + 1);
    if (flags & EXPECTED) record.expected = u[at++];
    if (flags & ERROR) record.error = u[at++] as string;
    if (flags & COST) record.costUsd = u[at++] as number;
    if (flags & SCORER_COST) record.scorerCostUsd = u[at++] as number;
    if (flags & RUN_ID) record.runId = r + (u[at++] as string);
    return record;
  });
}
