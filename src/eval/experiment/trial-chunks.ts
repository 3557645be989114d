import type { ScoreResult } from '../scorers/scorer.js';
import type { TrialRecord } from './experiment-types.js';

/**
 * Trials as the SQL stores write them since #47's chunk rows: the trials committed together, as one row
 * holding one JSON document, `{"v":1,"s":[scorer names],"r":run id start,"t":[trial, …]}`. A trial is an
 * array:
 *
 *   [caseIndex, trial, flags, input, output, status, scores, steps, llmCalls, promptTokens,
 *    completionTokens, latencyMs, …the optional fields set in `flags`, in the order of the bits]
 *
 * `flags`: 1 passed, 2 a case id other than the 1-based position, 4 expected (set, not undefined),
 * 8 error, 16 costUsd, 32 scorerCostUsd, 64 runId (always the last field, written without the start `r`
 * that every run id of the row shares). A score is its number when it is `{ name, score, pass: score >= 1 }`
 * with the name at its position in `s`, else the score object itself.
 *
 * One row and one `JSON.stringify` per commit, and no key names: about a third of the bytes of a compact
 * row per trial, which is what writing costs (a trial's row was most of runExperiment's cost over agent.run).
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

function scoreOf(s: ScoreResult, name: string | undefined): ScoreResult | number {
  return s.name === name &&
    s.pass === s.score >= 1 &&
    s.reason === undefined &&
    s.error === undefined &&
    s.costUsd === undefined &&
    s.tokens === undefined &&
    s.metadata === undefined
    ? s.score
    : s;
}

function trialTuple(t: TrialRecord, names: readonly string[]): unknown[] {
  const scores: (ScoreResult | number)[] = [];
  for (let j = 0; j < t.scores.length; j++) scores.push(scoreOf(t.scores[j], names[j]));
  const out: unknown[] = [
    t.caseIndex,
    t.trial,
    0,
    t.input,
    t.output,
    t.status,
    scores,
    t.steps,
    t.llmCalls,
    t.promptTokens,
    t.completionTokens,
    t.latencyMs,
  ];
  let flags = t.pass ? PASS : 0;
  if (t.caseId !== String(t.caseIndex + 1)) {
    flags |= CASE_ID;
    out.push(t.caseId);
  }
  if (t.expected !== undefined) {
    flags |= EXPECTED;
    out.push(t.expected);
  }
  if (t.error !== undefined) {
    flags |= ERROR;
    out.push(t.error);
  }
  if (t.costUsd !== undefined) {
    flags |= COST;
    out.push(t.costUsd);
  }
  if (t.scorerCostUsd !== undefined) {
    flags |= SCORER_COST;
    out.push(t.scorerCostUsd);
  }
  if (t.runId !== undefined) {
    flags |= RUN_ID;
    out.push(t.runId);
  }
  out[2] = flags;
  return out;
}

/**
 * A chunk row being filled, one trial at a time: each trial is made its tuple as it comes, so a store
 * holds small arrays until its commit rather than the records (which then die young, cheap to collect).
 */
export class ChunkBuilder {
  private readonly names: string[];
  private readonly tuples: unknown[][] = [];
  /** The longest start the run ids added share (a process's run ids differ only in a counter at the end). */
  private runPrefix: string | undefined;
  /** The lowest case index added. */
  firstCase: number;

  constructor(first: TrialRecord) {
    this.names = first.scores.map((s) => s.name);
    this.firstCase = first.caseIndex;
    this.add(first);
  }

  add(t: TrialRecord): void {
    this.tuples.push(trialTuple(t, this.names));
    if (t.caseIndex < this.firstCase) this.firstCase = t.caseIndex;
    const id = t.runId;
    if (id === undefined) return;
    const prefix = this.runPrefix;
    if (prefix === undefined) {
      this.runPrefix = id;
      return;
    }
    let n = 0;
    const max = Math.min(prefix.length, id.length);
    while (n < max && prefix.charCodeAt(n) === id.charCodeAt(n)) n++;
    if (n < prefix.length) this.runPrefix = prefix.slice(0, n);
  }

  /** The row's JSON; a run id (the last field of its trial) is written without the start they all share, in `r`. */
  json(): string {
    const r = this.runPrefix;
    if (!r) return JSON.stringify({ v: 1, s: this.names, t: this.tuples });
    for (const u of this.tuples) {
      if ((u[2] as number) & RUN_ID) u[u.length - 1] = (u[u.length - 1] as string).slice(r.length);
    }
    return JSON.stringify({ v: 1, s: this.names, r, t: this.tuples });
  }
}

/** The trials of a chunk row's JSON, in the order they were written. */
export function trialsFromChunk(text: string): TrialRecord[] {
  const { s: names, t: tuples, r = '' } = JSON.parse(text) as { s: string[]; t: unknown[][]; r?: string };
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

/** A chunk row's number (rows written later have higher ones) and the lowest case index it holds. */
export interface ChunkEntry {
  chunk: number;
  firstCase: number;
}

const byKey = (a: TrialRecord, b: TrialRecord) => a.caseIndex - b.caseIndex || a.trial - b.trial;

/**
 * Every trial of an experiment's chunks, ordered by case then trial. `listChunks` gives the experiment's
 * chunk numbers (ascending as they were written) with their lowest case index, ordered by that case index
 * (it is called when the reading starts); `load` reads one chunk. A chunk is read only when the order reaches its first case, and a trial is held
 * only until every chunk that could hold an earlier one has been read, so memory stays near a chunk or
 * two for an experiment of any size. A trial saved again (re-run) is read from its latest chunk.
 */
export async function* orderedChunkTrials(
  listChunks: () => readonly ChunkEntry[] | Promise<readonly ChunkEntry[]>,
  load: (chunk: number) => string | Promise<string>,
): AsyncIterable<TrialRecord> {
  const chunks = await listChunks();
  let held: { t: TrialRecord; chunk: number }[] = [];
  function* release(below: number): Generator<TrialRecord> {
    held.sort((a, b) => byKey(a.t, b.t) || a.chunk - b.chunk);
    let i = 0;
    for (; i < held.length && held[i].t.caseIndex < below; i++) {
      const next = held[i + 1];
      // Of the copies of one trial, the last (the latest chunk) is the one kept.
      if (next && byKey(next.t, held[i].t) === 0) continue;
      yield held[i].t;
    }
    held = held.slice(i);
  }
  for (const { chunk, firstCase } of chunks) {
    yield* release(firstCase);
    for (const t of trialsFromChunk(await load(chunk))) held.push({ t, chunk });
  }
  yield* release(Number.POSITIVE_INFINITY);
}

/**
 * Two streams ordered by case then trial, merged in that order: `older` (rows of one trial each, written
 * before the chunks) and `newer` (the chunks); a trial in both is read from `newer`.
 */
export async function* mergeTrials(
  older: AsyncIterable<TrialRecord>,
  newer: AsyncIterable<TrialRecord>,
): AsyncIterable<TrialRecord> {
  const a = older[Symbol.asyncIterator]();
  const b = newer[Symbol.asyncIterator]();
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && byKey(x.value, y.value) < 0)) {
      yield (x as IteratorYieldResult<TrialRecord>).value;
      x = await a.next();
    } else {
      if (!x.done && byKey(x.value, y.value) === 0) x = await a.next();
      yield y.value;
      y = await b.next();
    }
  }
}
