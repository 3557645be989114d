import pc from 'picocolors';
import { plural } from '../core/index.js';
import { formatMs } from '../llm/index.js';
import type { EvalReport } from './eval-report.js';
import { alignColumns } from './report/align-columns.js';

export interface FormatEvalTableOptions {
  color?: boolean;
  /** The pass rate the run must reach (0..1), shown in the summary. */
  minPass?: number;
}

/**
 * The report as a terminal table: one row per case with pass count, pass rate, mean steps, LLM calls,
 * tokens and latency, and the first failed check; then the suite's pass rate and totals.
 */
export function formatEvalTable(report: EvalReport, options: FormatEvalTableOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const header = ['case', 'pass', 'rate', 'steps', 'LLM calls', 'tokens', 'latency', 'first failure'];
  const rows = report.cases.map((k) => {
    const failedRun = k.runs.find((r) => !r.pass);
    const failed = failedRun?.error ?? failedRun?.checks.find((ch) => !ch.pass);
    const why = typeof failed === 'string' ? failed : failed ? `${failed.check}: ${failed.message ?? 'failed'}` : '';
    return [
      k.id,
      `${k.passed}/${k.runs.length}`,
      percent(k.passRate),
      round(k.meanSteps),
      round(k.meanLlmCalls),
      String(Math.round(k.meanTokens)),
      formatMs(Math.round(k.meanDurationMs)),
      why.length > 60 ? `${why.slice(0, 59)}…` : why,
    ];
  });
  const aligned = alignColumns(header, rows);
  const out = [c.bold(aligned.header), c.dim(aligned.rule)];
  for (const [i, line] of aligned.rows.entries()) {
    const ok = report.cases[i].passed === report.cases[i].runs.length;
    out.push(ok ? line : c.red(line));
  }
  const cost = report.costUsd === undefined ? '' : ` · $${report.costUsd.toFixed(4)}`;
  const verdict =
    options.minPass === undefined
      ? ''
      : report.passRate >= options.minPass
        ? c.green(` ≥ ${percent(options.minPass)} required`)
        : c.red(` < ${percent(options.minPass)} required`);
  out.push(
    '',
    `${c.bold(`pass rate ${percent(report.passRate)}`)} (${report.passed}/${plural(report.runs, 'run')})${verdict} · ${report.promptTokens + report.completionTokens} tokens${cost} · ${formatMs(report.durationMs)}`,
  );
  return `${out.join('\n')}\n`;
}

function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
