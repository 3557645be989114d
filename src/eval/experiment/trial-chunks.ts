import type { ScoreResult } from '../scorers/scorer.js';
import type { TrialRecord } from './experiment-types.js';
import { nextRunId, RunIdSequence } from './run-id-sequence.js';
import { trialsFromChunkV1 } from './trial-chunks-v1.js';

/**
 * Trials as the stores keep them: the trials committed together, as one row holding one JSON document,
 * `{"v":3,"s":[scorer names],"n":trials,"t":[…]}`. `t` holds each trial in turn, as a mask and then the
 * fields whose bit it sets, in the order of the bits. A field left out is the previous trial's (the row
 * is read in order), except the case index, one more than the previous trial's, the case id, the 1-based
 * position, and the run id, the previous one's counter plus one (run-id-sequence.ts). So a trial writes
 * what changed: in a run of cases of one expected answer with the same counts and scores, its input and
 * latency (about 10 bytes a trial of the bench's agent; 48 in `"v":2` rows, which wrote every run id
 * whole, and 65 in the rows of trial-chunks-v1.ts; both are still read).
 *
 * A score is its number when it is `{ name, score, pass: score >= 1 }` with the name at its position in
 * `s`, else the score object itself. `null` is an optional field unset (error, costs, run id); `expected`
 * unset is a bit of its own.
 */
const INPUT = 1;
const RUN_ID = 2;
const LATENCY = 4;
const OUTPUT = 8;
const CASE_INDEX = 16;
const TRIAL = 32;
const PASS = 64;
const SCORES = 128;
const STATUS = 256;
const STEPS = 512;
const LLM_CALLS = 1024;
const PROMPT_TOKENS = 2048;
const COMPLETION_TOKENS = 4096;
const EXPECTED = 8192;
const NO_EXPECTED = 16384;
const CASE_ID = 32768;
const ERROR = 65536;
const COST = 131072;
const SCORER_COST = 262144;

/** What a row's first trial is compared with: its input and scores always differ from these. */
const START: TrialRecord = {
  caseId: '',
  caseIndex: -1,
  trial: 0,
  input: Symbol('no input'),
  expected: undefined,
  output: '',
  status: 'done',
  error: undefined,
  pass: true,
  scores: [],
  steps: 0,
  llmCalls: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: undefined,
  scorerCostUsd: undefined,
  latencyMs: 0,
  runId: undefined,
};

/** The score as a row keeps it: its number when name and pass are those it implies and nothing else is set. */
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

/**
 * Whether `id` is `String(n)` (`n` a position, 1 or more), told from its digits rather than by making
 * that string: the string made per trial beside the one the record already holds cost a lookup in V8's
 * cache of number strings or a new string, several times these few character reads.
 */
function isPositionId(id: string, n: number): boolean {
  if (!(n >= 1 && n <= 0x7fffffff && Number.isInteger(n))) return id === String(n);
  let at = id.length;
  for (; n > 0; n = (n - (n % 10)) / 10) {
    if (--at < 0 || id.charCodeAt(at) !== 48 + (n % 10)) return false;
  }
  return at === 0;
}

/**
 * A chunk row being filled, one trial at a time: each trial is made its tuple as it comes (what changed
 * since the one before), so a store holds small arrays until its commit rather than the records.
 */
export class ChunkBuilder {
  private readonly names: string[];
  /** Every trial's mask and fields, one after another: no array per trial. */
  private readonly values: unknown[] = [];
  /** How many trials were added. */
  private count = 0;
  private last: TrialRecord = START;
  /** The last scores written, as written. */
  private lastScores: (ScoreResult | number)[] = [];
  private readonly runIds = new RunIdSequence();
  /** The lowest case index added. */
  firstCase: number;

  constructor(first: TrialRecord) {
    this.names = first.scores.map((s) => s.name);
    this.firstCase = first.caseIndex;
    this.add(first);
  }

  add(t: TrialRecord): void {
    const b = this.last;
    this.last = t;
    const u = this.values;
    const maskAt = u.length;
    u.push(0);
    let mask = 0;
    if (t.input !== b.input) {
      mask |= INPUT;
      u.push(t.input);
    }
    // A run id is written when it is not the previous one's counter plus one (and unset as null): about
    // 0.25 µs a trial less of SQLite's WAL. The agent's own ids one after another are told by identity,
    // without a character read (run-id-sequence.ts); others are read, about 0.1 µs a trial.
    if (!this.runIds.follows(t.runId)) {
      mask |= RUN_ID;
      u.push(t.runId ?? null);
    }
    if (t.latencyMs !== b.latencyMs) {
      mask |= LATENCY;
      u.push(t.latencyMs);
    }
    if (t.output !== b.output) {
      mask |= OUTPUT;
      u.push(t.output);
    }
    if (t.caseIndex !== b.caseIndex + 1) {
      mask |= CASE_INDEX;
      u.push(t.caseIndex);
    }
    if (t.trial !== b.trial) {
      mask |= TRIAL;
      u.push(t.trial);
    }
    if (t.pass !== b.pass) {
      mask |= PASS;
      u.push(t.pass ? 1 : 0);
    }
    if (!this.sameScores(t.scores)) {
      mask |= SCORES;
      const scores: (ScoreResult | number)[] = [];
      for (let j = 0; j < t.scores.length; j++) scores.push(scoreOf(t.scores[j], this.names[j]));
      u.push(scores);
      this.lastScores = scores;
    }
    if (t.status !== b.status) {
      mask |= STATUS;
      u.push(t.status);
    }
    if (t.steps !== b.steps) {
      mask |= STEPS;
      u.push(t.steps);
    }
    if (t.llmCalls !== b.llmCalls) {
      mask |= LLM_CALLS;
      u.push(t.llmCalls);
    }
    if (t.promptTokens !== b.promptTokens) {
      mask |= PROMPT_TOKENS;
      u.push(t.promptTokens);
    }
    if (t.completionTokens !== b.completionTokens) {
      mask |= COMPLETION_TOKENS;
      u.push(t.completionTokens);
    }
    if (t.expected !== b.expected) {
      if (t.expected === undefined) mask |= NO_EXPECTED;
      else {
        mask |= EXPECTED;
        u.push(t.expected);
      }
    }
    if (!isPositionId(t.caseId, t.caseIndex + 1)) {
      mask |= CASE_ID;
      u.push(t.caseId);
    }
    if (t.error !== b.error) {
      mask |= ERROR;
      u.push(t.error ?? null);
    }
    if (t.costUsd !== b.costUsd) {
      mask |= COST;
      u.push(t.costUsd ?? null);
    }
    if (t.scorerCostUsd !== b.scorerCostUsd) {
      mask |= SCORER_COST;
      u.push(t.scorerCostUsd ?? null);
    }
    u[maskAt] = mask;
    this.count++;
    if (t.caseIndex < this.firstCase) this.firstCase = t.caseIndex;
  }

  /** Whether the scores are those last written, each a number there (score objects are always written). */
  private sameScores(scores: readonly ScoreResult[]): boolean {
    const last = this.lastScores;
    if (scores.length !== last.length) return false;
    for (let j = 0; j < scores.length; j++) {
      const s = scoreOf(scores[j], this.names[j]);
      if (typeof s !== 'number' || s !== last[j]) return false;
    }
    return true;
  }

  /** How many trials were added. */
  get size(): number {
    return this.count;
  }

  /** The row's JSON. */
  json(): string {
    return JSON.stringify({ v: 3, s: this.names, n: this.count, t: this.values });
  }
}

/** The trials of a chunk row's JSON (any version), in the order they were written. */
export function trialsFromChunk(text: string): TrialRecord[] {
  const row = JSON.parse(text) as { v: number; s: string[]; t: unknown[]; r?: string };
  if (row.v === 1) return trialsFromChunkV1(row as { s: string[]; t: unknown[][]; r?: string });
  // A `"v":2` row left a run id out only where it and the one before were unset, which v3 reads alike.
  if (row.v === 2 || row.v === 3) return trialsFromChunkV2(row);
  throw new Error(
    `A chunk of trials of version ${row.v} (this thinkflow reads versions 1 to 3): read the store with a newer thinkflow.`,
  );
}

/** A field unset: `null` in a row. */
const unset = <T>(value: unknown) => (value === null ? undefined : (value as T));

function trialsFromChunkV2({ s: names, t: u }: { s: string[]; t: unknown[] }) {
  const out: TrialRecord[] = [];
  // The previous trial's fields: what a field left out of a tuple is.
  let { input, runId, latencyMs, output, caseIndex, trial, pass, status, steps, llmCalls } = START;
  let { promptTokens, completionTokens, expected, error, costUsd, scorerCostUsd } = START;
  let scores: (ScoreResult | number)[] = [];
  for (let at = 0; at < u.length; ) {
    const mask = u[at++] as number;
    if (mask & INPUT) input = u[at++];
    runId = mask & RUN_ID ? unset<string>(u[at++]) : nextRunId(runId);
    if (mask & LATENCY) latencyMs = u[at++] as number;
    if (mask & OUTPUT) output = u[at++] as string;
    caseIndex = mask & CASE_INDEX ? (u[at++] as number) : caseIndex + 1;
    if (mask & TRIAL) trial = u[at++] as number;
    if (mask & PASS) pass = u[at++] === 1;
    if (mask & SCORES) scores = u[at++] as (ScoreResult | number)[];
    if (mask & STATUS) status = u[at++] as TrialRecord['status'];
    if (mask & STEPS) steps = u[at++] as number;
    if (mask & LLM_CALLS) llmCalls = u[at++] as number;
    if (mask & PROMPT_TOKENS) promptTokens = u[at++] as number;
    if (mask & COMPLETION_TOKENS) completionTokens = u[at++] as number;
    if (mask & NO_EXPECTED) expected = undefined;
    else if (mask & EXPECTED) expected = u[at++];
    const caseId = mask & CASE_ID ? (u[at++] as string) : String(caseIndex + 1);
    if (mask & ERROR) error = unset<string>(u[at++]);
    if (mask & COST) costUsd = unset<number>(u[at++]);
    if (mask & SCORER_COST) scorerCostUsd = unset<number>(u[at++]);
    const record: TrialRecord = {
      caseId,
      caseIndex,
      trial,
      input,
      output,
      status,
      pass,
      // Each trial its own score objects, also where its scores are the previous trial's.
      scores: scores.map((s, j) => (typeof s === 'number' ? { name: names[j], score: s, pass: s >= 1 } : { ...s })),
      steps,
      llmCalls,
      promptTokens,
      completionTokens,
      latencyMs,
    };
    if (expected !== undefined) record.expected = expected;
    if (error !== undefined) record.error = error;
    if (costUsd !== undefined) record.costUsd = costUsd;
    if (scorerCostUsd !== undefined) record.scorerCostUsd = scorerCostUsd;
    if (runId !== undefined) record.runId = runId;
    out.push(record);
  }
  return out;
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
