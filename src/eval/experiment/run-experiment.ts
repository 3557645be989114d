import type { CacheStore } from '../../cache/index.js';
import { ConfigError, namePart } from '../../core/index.js';
import type { Scorer } from '../scorers/scorer.js';
import { cachedTask, cacheOf, experimentStoreOf, isAgent } from './experiment-setup.js';
import type {
  Experiment,
  ExperimentMeta,
  ExperimentResult,
  ExperimentStore,
  ExperimentSummary,
  TrialRecord,
} from './experiment-types.js';
import { trialKey } from './experiment-types.js';
import { SAVED } from './memory-experiment-store.js';
import { type CaseRow, callTask, failedTrial, scoredTrial, type Task } from './run-trial.js';
import { summaryTally } from './summary-tally.js';

/**
 * Trials a store may hold uncommitted while the next ones run (SQLite commits them together, at most 1,024
 * a transaction). Only tasks that finish within one turn of the event loop fill it (scripted or cached
 * ones, whose 1,024 trials take milliseconds to run again): a task that waits on anything (a model, a
 * timer) lets the store commit every turn. A kill loses at most these, which never counted as finished
 * and run again on resume.
 */
const MAX_UNSAVED = 1024;

/** Trials a store answered for with one promise (one SQLite commit): they settle together. */
interface SaveGroup {
  saved: Promise<void>;
  /** The trials in it, and how many of them passed. */
  count: number;
  passed: number;
  /** Their records, kept for onProgress only (the counts above do without). */
  records: TrialRecord[] | undefined;
  settled: boolean;
  /** `saved` with the group settled after it. */
  done: Promise<void>;
}

/** Progress after each finished trial. */
export interface ExperimentProgress {
  /** Trials finished, with those a resume found already stored. */
  done: number;
  total: number;
  /** Of the finished trials, how many passed (resumed ones included). */
  passed: number;
  caseId: string;
  pass: boolean;
  /** The trial that just finished. */
  trial: TrialRecord;
}

/** A case as given: a dataset row (`id` defaults to its 1-based position). */
export type DataRow<Input = unknown> = {
  id?: string;
  input: Input;
  expected?: unknown;
  metadata?: Record<string, unknown>;
};

export interface RunExperimentOptions<Input = unknown> {
  name: string;
  data: readonly DataRow<Input>[];
  task: Task<Input> | string;
  scorers: readonly Scorer[];
  /** Trials per case (pass@k and pass^k are reported for k up to it). Default 1. */
  trials?: number;
  /** Trials at once. Default 4. */
  concurrency?: number;
  /**
   * Where the experiment and each trial are kept as they finish: a store, a `postgres://` URL
   * (`PostgresExperimentStore`), or a SQLite file path (`SqliteExperimentStore`). Default: in memory. The
   * experiment returned reads its trials back from it (`experiment.trials`).
   */
  store?: ExperimentStore | string;
  /**
   * Answer model requests seen before from a reply cache, so a re-run whose requests are unchanged makes
   * no model call (`thinkflow eval run` does, unless `--no-cache`): `true` for one in memory, or a store
   * (`new SqliteCacheStore(file)` keeps it between runs). An Agent task's model is wrapped; a function
   * task finds the store in `ctx.cache`. Default off.
   */
  cache?: boolean | CacheStore;
  /** The experiment's id (default: its name and the time). */
  id?: string;
  /** Continue this experiment: trials already stored are not run again. */
  resume?: string;
  metadata?: Record<string, unknown>;
  onProgress?: (progress: ExperimentProgress) => void;
  signal?: AbortSignal;
  /** Seeds the bootstrap intervals. Default 47. */
  seed?: number;
}

/**
 * Runs every case `trials` times through the task (an Agent or a function), scores each trial with every
 * scorer, stores each trial as it finishes, and returns the experiment: its summary (pass rate, pass@k,
 * pass^k, and per scorer a mean with a bootstrap 95% interval) and its trials, read back from the store
 * (`for await (const t of experiment.trials)`: each case's scores, status, steps, tokens, cost, latency and
 * run id). A scorer that throws is recorded as that scorer's error; a task that throws is a failed trial. Resume a killed experiment with `resume: id` and the same data.
 *
 * @example
 * const experiment = await runExperiment({
 *   name: 'support-bot',
 *   data: loadDataset('evals/support.jsonl'),
 *   task: agent,
 *   scorers: [contains(), noError(), budget({ maxSteps: 5 })],
 *   trials: 3,
 * });
 * console.log(experiment.summary.passAtK[3], experiment.summary.scorers.contains);
 * for await (const t of experiment.trials) if (!t.pass) console.log(t.caseId, t.scores);
 */
export async function runExperiment<Input>(options: RunExperimentOptions<Input>): Promise<ExperimentResult> {
  const { task } = options;
  if (typeof task === 'string') {
    throw new ConfigError({
      message: `The task "${task}" is an agent's name: pass the Agent itself, or run the suite with \`thinkflow eval run\`, which builds agents from thinkflow.config.`,
    });
  }
  const { store, owned } = experimentStoreOf(options.store);
  const cache = cacheOf(options.cache);
  try {
    const experiment = await runAll(options, store, cachedTask(task as Task, cache), cache);
    const id = experiment.meta.id;
    const read = owned ? () => readReopened(options.store as string, id) : () => store.trials(id);
    const trials: AsyncIterable<TrialRecord> = { [Symbol.asyncIterator]: () => read()[Symbol.asyncIterator]() };
    return Object.defineProperty(experiment, 'trials', { value: trials }) as ExperimentResult;
  } finally {
    if (owned) await store.close?.();
  }
}

/** The trials of an experiment whose store the experiment opened from a path and closed: opened again to read them. */
async function* readReopened(path: string, id: string): AsyncGenerator<TrialRecord> {
  const { store } = experimentStoreOf(path);
  try {
    yield* store.trials(id);
  } finally {
    await store.close?.();
  }
}

async function runAll<Input>(
  options: RunExperimentOptions<Input>,
  store: ExperimentStore,
  task: Task,
  cache: CacheStore | undefined,
): Promise<Experiment> {
  const { scorers, data, onProgress } = options;
  const trials = Math.max(1, Math.floor(options.trials ?? 1));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const meta = await openExperiment(store, options, data.length, trials);
  // The summary is folded as trials finish; a resumed experiment first folds the trials already stored.
  const tally = summaryTally(trials, data.length);
  const finished = new Set<string>();
  if (options.resume) {
    for await (const t of store.trials(meta.id)) {
      finished.add(trialKey(t.caseIndex, t.trial));
      tally.add(t);
    }
  }
  const started = Date.now();
  const total = data.length * trials;
  let done = finished.size;
  let passed = tally.passed;
  /** The next job: job j is trial j % trials of case ⌊j / trials⌋ (a counter, not an object per job). */
  let nextJob = 0;
  const takeJob = (): number => {
    while (nextJob < total) {
      const job = nextJob++;
      if (!finished.size || !finished.has(trialKey(Math.floor(job / trials), job % trials))) return job;
    }
    return -1;
  };
  const context = { signal: options.signal, cache };
  // A trial's latency is its run's durationMs when it has one: a thinkflow Agent's runs always do, and it
  // never rejects, so for an Agent alone the clock is not read before the task (60 ns a read here, a
  // tenth of runExperiment's own cost a case). A function task, which may answer with text, and a wrapper
  // of your own, which may leave durationMs out or throw, are timed from their first trial; an Agent-shaped
  // task whose run came without durationMs is timed from then on (that one trial counts about 0 ms).
  let clocked = !isAgent(task);
  // A trial counts as finished (progress, `done`) once its store has it. The next trial starts while the
  // store writes, so a store may commit several together (SQLite does); at most MAX_UNSAVED wait at once.
  // Trials a store answers with one promise (one commit) settle together, in the order they were saved;
  // their records are held until then only for onProgress. The in-memory store has a trial when
  // `saveTrial` returns (it answers with SAVED): that trial is finished at once.
  let group: SaveGroup | undefined;
  let unsaved = 0;
  const settling = new Set<Promise<void>>();
  // The first failed save (or throwing onProgress): it ends the experiment.
  let saveError: { error: unknown } | undefined;
  const progress = (record: TrialRecord) => {
    try {
      onProgress?.({ done, total, passed, caseId: record.caseId, pass: record.pass, trial: record });
    } catch (error) {
      saveError ??= { error };
    }
  };
  const settle = (g: SaveGroup) => {
    g.settled = true;
    settling.delete(g.done);
    unsaved -= g.count;
    if (!g.records) {
      done += g.count;
      passed += g.passed;
      return;
    }
    for (const record of g.records) {
      done++;
      if (record.pass) passed++;
      progress(record);
    }
  };
  const save = (record: TrialRecord): Promise<void> | undefined => {
    const saved = store.saveTrial(meta.id, record);
    if (saved === SAVED) {
      done++;
      if (record.pass) passed++;
      if (onProgress) progress(record);
      return undefined;
    }
    unsaved++;
    let g = group;
    if (!g || g.saved !== saved || g.settled) {
      const fresh: SaveGroup = {
        saved,
        count: 0,
        passed: 0,
        records: onProgress ? [] : undefined,
        settled: false,
        done: saved,
      };
      fresh.done = saved.then(
        () => settle(fresh),
        (error: unknown) => {
          fresh.settled = true;
          settling.delete(fresh.done);
          unsaved -= fresh.count;
          saveError ??= { error };
        },
      );
      settling.add(fresh.done);
      group = g = fresh;
    }
    g.count++;
    if (record.pass) g.passed++;
    g.records?.push(record);
    return g.done;
  };
  async function worker(): Promise<void> {
    for (let job = takeJob(); job >= 0; job = takeJob()) {
      options.signal?.throwIfAborted();
      if (saveError) throw saveError.error;
      const index = Math.floor(job / trials);
      const trial = job - index * trials;
      const row: CaseRow = data[index];
      // The task is awaited here, and its answer scored without a promise when every scorer is synchronous.
      let started = clocked ? performance.now() : 0;
      let record: TrialRecord | Promise<TrialRecord> | undefined;
      let value: Awaited<ReturnType<typeof callTask>> = '';
      try {
        value = await callTask(task, row, index, trial, context);
      } catch (error) {
        record = failedTrial(scorers, row, index, trial, error, clocked ? performance.now() - started : 0);
      }
      if (!clocked && (typeof value === 'string' || value?.durationMs === undefined)) {
        clocked = true;
        started = performance.now();
      }
      record ??= scoredTrial(scorers, row, index, trial, value, started);
      if (!('caseIndex' in record)) record = await record;
      tally.add(record);
      const saved = save(record);
      if (saved && unsaved >= MAX_UNSAVED) await saved;
    }
  }
  let summary: ExperimentSummary | undefined;
  let finishing: Promise<void> | undefined;
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, total)) }, worker));
    if (!saveError) {
      // Every trial is in the tally: the summary goes to the store behind the last trials, which a store
      // may still be writing (SQLite commits them and the summary in one transaction).
      summary = tally.summary({ durationMs: Date.now() - started, seed: options.seed });
      finishing = store.finishExperiment(meta.id, summary);
      finishing.catch(() => undefined); // awaited below, once the saves have settled
    }
  } finally {
    await Promise.all(settling);
  }
  if (saveError) throw saveError.error;
  await finishing;
  return { meta: { ...meta, status: 'done' }, summary: summary as ExperimentSummary };
}

async function openExperiment(
  store: ExperimentStore,
  options: Pick<RunExperimentOptions, 'resume' | 'id' | 'name' | 'scorers' | 'metadata'>,
  cases: number,
  trials: number,
): Promise<ExperimentMeta> {
  if (options.resume) {
    const found = await store.getExperiment(options.resume);
    if (!found) throw new ConfigError({ message: `No experiment "${options.resume}" to resume in this store.` });
    if (found.meta.cases !== cases || found.meta.trials !== trials) {
      throw new ConfigError({
        message: `Experiment "${options.resume}" had ${found.meta.cases} cases × ${found.meta.trials} trials; resume it with the same data and trials (got ${cases} × ${trials}).`,
      });
    }
    return found.meta;
  }
  const startedAt = new Date().toISOString();
  const meta: ExperimentMeta = {
    id: options.id ?? `${namePart(options.name, { distinct: false })}-${startedAt.replace(/[:.]/g, '-')}`,
    name: options.name,
    startedAt,
    status: 'running',
    cases,
    trials,
    scorers: options.scorers.map((s) => s.name),
    metadata: options.metadata,
  };
  await store.createExperiment(meta);
  return meta;
}
