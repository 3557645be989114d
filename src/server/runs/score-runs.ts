import { errorMessage, type RunResult } from '../../core/index.js';
import { applyScorer, type RunLike, type Scorer } from '../../eval/index.js';
import type { EvalStore, RunRecord, RunScore, RunService } from '../records/index.js';

/** Online scoring of one agent's finished runs. */
export interface AgentScoring {
  scorers: readonly Scorer[];
  /** The share of finished runs scored, 0..1, drawn per run. Default 1 (every run). */
  sampleRate?: number;
}

/** A run's scores, once stored: what `onScores` (an OpenTelemetry exporter, a log) receives. */
export interface ScoredRun {
  runId: string;
  agent: string;
  scores: RunScore[];
}

/** `scoring` in the config: scorers per agent, run on a sample of finished production runs, off the run's path. */
export interface OnlineScoringConfig {
  /** By agent name. */
  agents: Record<string, AgentScoring>;
  /** How long one scorer may take on one run; one still going is kept as a scorer error. Default 30000 ms. */
  timeoutMs?: number;
  /** Runs scored at once. Default 2. */
  concurrency?: number;
  /** Finished runs waiting to be scored; beyond it a run goes unscored (and a line is logged). Default 1000. */
  maxQueued?: number;
  /** Called with each run's scores once stored (`otelScoreExporter(tracer)` exports them as spans). */
  onScores?: (scored: ScoredRun) => void;
  /** Export scores to OpenTelemetry through the process's global tracer provider (`scoring.otel: true` in YAML). */
  otel?: boolean;
}

export interface ScoreRunsContext {
  scoring: OnlineScoringConfig;
  evals: Pick<EvalStore, 'addScores'>;
  /** Where a failure to store scores, or a dropped run, is reported. */
  onError: (error: unknown) => void;
  /** Draws the sample (tests pass their own). Default Math.random. */
  random?: () => number;
}

/** A run service that also scores a sample of its finished runs in the background. */
export interface ScoredRuns extends RunService {
  /** Resolves once every run already sampled has been scored (for tests and shutdown). */
  idle(): Promise<void>;
}

/**
 * Wraps a run service so a sample of each configured agent's runs is scored once it ends: the run's
 * start, its response and its end never wait on scoring (scoring starts after the run's own waiters
 * are answered, at most `concurrency` at once). A scorer that throws or outlives `timeoutMs` is kept as
 * a scorer error; a store that cannot write is reported to `onError`. Nothing here ends the process.
 */
export function scoreRuns(service: RunService, ctx: ScoreRunsContext): ScoredRuns {
  const { scoring } = ctx;
  const random = ctx.random ?? Math.random;
  const queue: RunRecord[] = [];
  const busy = new Set<Promise<void>>();
  const waiting = new Set<Promise<void>>();
  let closed = false;
  const pump = () => {
    while (!closed && busy.size < (scoring.concurrency ?? 2) && queue.length > 0) {
      const run = queue.shift() as RunRecord;
      const job = scoreRun(ctx, run).catch(ctx.onError);
      busy.add(job);
      void job.finally(() => {
        busy.delete(job);
        pump();
      });
    }
  };
  const sampled = (result: { ok: boolean; run?: RunRecord; replayed?: boolean }) => {
    if (!result.ok || !result.run || result.replayed) return;
    const agent = scoring.agents[result.run.agent];
    if (!agent || agent.scorers.length === 0 || random() >= (agent.sampleRate ?? 1)) return;
    const id = result.run.id;
    const watch = service
      .wait(id)
      .then((ended) => {
        if (!ended?.result || closed) return;
        if (queue.length >= (scoring.maxQueued ?? 1000)) {
          ctx.onError(new Error(`online scoring: ${queue.length} runs wait to be scored; run ${id} goes unscored.`));
          return;
        }
        queue.push(ended);
        // After the run's own waiters (a `?wait=true` response) have been answered.
        setTimeout(pump, 0);
      })
      .catch(ctx.onError);
    waiting.add(watch);
    void watch.finally(() => waiting.delete(watch));
  };
  const idle = async () => {
    while (!closed && waiting.size + busy.size + queue.length > 0) {
      await Promise.allSettled([...waiting, ...busy]);
      if (busy.size === 0 && queue.length > 0) pump();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  const fork = service.fork?.bind(service);
  return {
    ...service,
    agentNames: () => service.agentNames(),
    async start(request) {
      const result = await service.start(request);
      sampled(result);
      return result;
    },
    ...(fork && {
      async fork(id, request) {
        const result = await fork(id, request);
        sampled(result);
        return result;
      },
    }),
    idle,
    async close(options) {
      await service.close(options);
      // Runs already sampled are scored before the store closes, for as long as the shutdown allows.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise((resolve) => {
        timer = setTimeout(resolve, options?.timeoutMs ?? 10_000);
      });
      await Promise.race([idle(), timeout]);
      clearTimeout(timer);
      closed = true;
      queue.length = 0;
      await Promise.allSettled([...busy]);
    },
  };
}

/** Scores one ended run with its agent's scorers, each under the timeout, and stores the scores. */
async function scoreRun(ctx: ScoreRunsContext, run: RunRecord): Promise<void> {
  const result = run.result as RunResult;
  const agent = ctx.scoring.agents[run.agent];
  const timeoutMs = ctx.scoring.timeoutMs ?? 30_000;
  const input = {
    input: run.input,
    output: result.output ?? '',
    metadata: { runId: run.id, agent: run.agent, source: run.source },
    run: result as RunLike,
  };
  const scores: RunScore[] = [];
  for (const scorer of agent.scorers) {
    const started = performance.now();
    const verdict = await withTimeout(applyScorer(scorer, input), timeoutMs, scorer.name);
    const ms = Math.round(performance.now() - started);
    scores.push({ ...verdict, runId: run.id, ms, scoredAt: Date.now() });
  }
  await ctx.evals.addScores(scores);
  if (!ctx.scoring.onScores) return;
  try {
    ctx.scoring.onScores({ runId: run.id, agent: run.agent, scores });
  } catch (error) {
    ctx.onError(new Error(`online scoring: onScores failed for run ${run.id}: ${errorMessage(error)}`));
  }
}

/** The scorer's verdict, or a scorer error once `ms` passed (the scorer is left to finish unheard). */
async function withTimeout(
  verdict: ReturnType<typeof applyScorer>,
  ms: number,
  name: string,
): ReturnType<typeof applyScorer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Awaited<ReturnType<typeof applyScorer>>>((resolve) => {
    timer = setTimeout(
      () => resolve({ name, score: 0, pass: false, error: `the scorer took longer than ${ms} ms` }),
      ms,
    );
  });
  try {
    return await Promise.race([verdict, late]);
  } finally {
    clearTimeout(timer);
  }
}
