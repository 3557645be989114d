import type { Tracer } from '@opentelemetry/api';
import { requireOptional } from '../../core/index.js';

/** A run's scores as online scoring hands them over (`scoring.onScores` in a server config). */
export interface ScoresToExport {
  runId: string;
  agent: string;
  scores: readonly { name: string; score: number; pass: boolean; error?: string; ms?: number }[];
}

/**
 * Exports each scored run as one `thinkflow.scores` span (attributes `thinkflow.run_id`,
 * `gen_ai.agent.name`, and `thinkflow.score.<name>` with each score), with one `thinkflow.score`
 * event per scorer (`thinkflow.score.name`, `.value`, `.pass`, and `.error` when the scorer failed).
 * The span is a new trace: the run's own span ended before scoring began; `thinkflow.run_id` joins them.
 *
 * @example
 * export default defineConfig({ agents, scoring: { agents: { helper: { scorers: [noError()] } },
 *   onScores: otelScoreExporter(trace.getTracer('thinkflow')) } });
 */
export function otelScoreExporter(tracer: Tracer): (scored: ScoresToExport) => void {
  const api = requireOptional<typeof import('@opentelemetry/api')>('otel', '@opentelemetry/api');
  return ({ runId, agent, scores }) => {
    const attributes: Record<string, string | number | boolean> = {
      'thinkflow.run_id': runId,
      'gen_ai.agent.name': agent,
    };
    for (const score of scores) attributes[`thinkflow.score.${score.name}`] = score.score;
    const span = tracer.startSpan('thinkflow.scores', { attributes });
    for (const score of scores) {
      span.addEvent('thinkflow.score', {
        'thinkflow.score.name': score.name,
        'thinkflow.score.value': score.score,
        'thinkflow.score.pass': score.pass,
        ...(score.error === undefined ? {} : { 'thinkflow.score.error': score.error }),
        ...(score.ms === undefined ? {} : { 'thinkflow.score.ms': score.ms }),
      });
    }
    const failed = scores.filter((score) => score.error !== undefined).length;
    span.setStatus(
      failed > 0
        ? { code: api.SpanStatusCode.ERROR, message: `${failed} scorer(s) failed` }
        : { code: api.SpanStatusCode.OK },
    );
    span.end();
  };
}

/** `otelScoreExporter` on the process's global tracer provider (`scoring.otel: true`). */
export function globalOtelScoreExporter(): (scored: ScoresToExport) => void {
  const api = requireOptional<typeof import('@opentelemetry/api')>('otel', '@opentelemetry/api');
  return otelScoreExporter(api.trace.getTracer('thinkflow'));
}
