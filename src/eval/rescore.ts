import type { AgentEvent } from '../core/index.js';
import { readTrace, summarizeTrace, traceRuns } from '../trace/index.js';
import { type RunLike, type ScoreResult, type Scorer, scoreAll } from './scorers/scorer.js';

/**
 * A run rebuilt from its trace events, for scoring offline: status, answer, usage and duration from
 * `run_end`, the tool calls from `tool_start`/`tool_end` (and as the model sent them from its
 * `model_response`), one step per traced step. The input comes from
 * `run_start`. A trace without `run_end` (a run killed midway) reads as `failed`.
 */
export function runFromTrace(events: readonly AgentEvent[]): { input: string; run: RunLike } {
  const summary = summarizeTrace(events);
  const end = summary.end;
  const run: RunLike = {
    runId: summary.start?.runId ?? end?.runId,
    status: end?.status ?? 'failed',
    output: end?.output ?? '',
    usage: summary.usage,
    durationMs: end?.durationMs ?? summary.endTs - summary.startTs,
    error: end?.error ?? (end ? undefined : { code: 'no_run_end', message: 'the trace has no run_end event' }),
    steps: summary.steps.map((step) => ({
      kind: step.final !== undefined ? 'final' : step.tools.length ? 'tool_calls' : 'invalid',
      // The native calls exactly as the model sent them (its last reply in the step), for `toolCalls`.
      rawToolCalls: step.modelCalls.at(-1)?.response?.toolCalls,
      toolCalls: step.tools.map((tool) => ({
        id: tool.callId,
        name: tool.tool,
        input: tool.input,
        output: tool.output ?? '',
        ok: tool.ok ?? false,
        error: tool.error,
        durationMs: tool.ms ?? 0,
      })),
    })),
  };
  return { input: summary.start?.input ?? '', run };
}

/** One item to score offline: a stored run or a trace, with what the case expected if known. */
export interface RescoreItem {
  /** Names the item in the results (a run id or a trace file). */
  id: string;
  input: unknown;
  run: RunLike;
  expected?: unknown;
  metadata?: Record<string, unknown>;
}

/** One item's scores. */
export interface RescoreResult {
  id: string;
  scores: ScoreResult[];
}

/**
 * Scores runs that already happened (stored runs, trace files) with any scorers, making no model call
 * of the task (an `llmJudge` among the scorers still calls its judge). Results stream out one by one, so
 * 50,000 runs never sit in memory at once.
 *
 * @example
 * for await (const r of rescore(traceItems(['a.jsonl', 'b.jsonl']), [noError(), toolCalls(expected)])) console.log(r);
 */
export async function* rescore(
  items: Iterable<RescoreItem> | AsyncIterable<RescoreItem>,
  scorers: readonly Scorer[],
): AsyncGenerator<RescoreResult> {
  for await (const item of items) {
    const scored = scoreAll(scorers, {
      input: item.input,
      output: item.run.output,
      expected: item.expected,
      metadata: item.metadata,
      run: item.run,
    });
    const scores = Array.isArray(scored) ? scored : await scored;
    yield { id: item.id, scores };
  }
}

/**
 * Trace files as items to rescore, each file read when its turn comes: one item per run in it (a file
 * `--trace` appended several runs to holds them all), named by the file, and by `#n` after it when the
 * file holds more than one run. A file with no event holds no run.
 */
export function* traceItems(paths: Iterable<string>): Generator<RescoreItem> {
  for (const path of paths) {
    const runs = traceRuns(readTrace(path));
    for (const [i, events] of runs.entries()) {
      const { input, run } = runFromTrace(events);
      yield { id: runs.length > 1 ? `${path}#${i + 1}` : path, input, run };
    }
  }
}
