import pc from 'picocolors';
import { formatMs } from '../../llm/index.js';
import type { Comparison } from '../experiment/compare-experiments.js';
import type { ExperimentMeta, ExperimentSummary, TrialRecord } from '../experiment/experiment-types.js';
import { alignColumns } from './align-columns.js';

const pct = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const num = (n: number) => n.toFixed(3);

function table(header: string[], rows: string[][]): string[] {
  const aligned = alignColumns(header, rows);
  return [aligned.header, aligned.rule, ...aligned.rows];
}

/**
 * An experiment as a terminal table: per scorer its mean with the 95% interval, pass rate and errors;
 * pass@k and pass^k; totals; and the failed trials (up to `maxFailures`).
 */
export async function formatExperiment(
  experiment: {
    meta: ExperimentMeta;
    summary: ExperimentSummary;
    trials?: AsyncIterable<TrialRecord> | Iterable<TrialRecord>;
  },
  options: { color?: boolean; maxFailures?: number } = {},
): Promise<string> {
  const c = pc.createColors(options.color ?? false);
  const { meta, summary: s } = experiment;
  const rows = Object.entries(s.scorers).map(([name, e]) => [
    name,
    num(e.mean),
    `[${num(e.low)}, ${num(e.high)}]`,
    pct(e.passRate),
    String(e.errors),
  ]);
  const out = [
    c.bold(`experiment ${meta.name} (${meta.id})`),
    ...table(['scorer', 'mean', '95% CI', 'pass', 'errors'], rows),
  ];
  const ks = Object.keys(s.passAtK).map(Number);
  if (ks.length > 1) {
    out.push(
      '',
      ks.map((k) => `pass@${k} ${pct(s.passAtK[k])}`).join(' · '),
      ks.map((k) => `pass^${k} ${pct(s.passHatK[k])}`).join(' · '),
    );
  }
  const failures: string[] = [];
  const max = options.maxFailures ?? 20;
  let failed = 0;
  for await (const t of experiment.trials ?? []) {
    if (t.pass) continue;
    failed++;
    if (failures.length >= max) continue;
    const why =
      t.error ??
      t.scores
        .filter((x) => !x.pass)
        .map((x) => `${x.name}: ${x.error ?? x.reason ?? 'failed'}`)
        .join('; ');
    failures.push(
      `  ${c.red('✗')} ${t.caseId}${meta.trials > 1 ? ` #${t.trial + 1}` : ''}: ${why.length > 100 ? `${why.slice(0, 99)}…` : why}`,
    );
  }
  if (failures.length)
    out.push('', c.bold('failed'), ...failures, ...(failed > max ? [`  … and ${failed - max} more`] : []));
  const cost = s.costUsd === undefined ? '' : ` · $${s.costUsd.toFixed(4)}`;
  const judge = s.scorerCostUsd ? ` · scoring $${s.scorerCostUsd.toFixed(4)}` : '';
  const rate = s.passed === s.trials ? c.green(pct(s.passRate)) : c.red(pct(s.passRate));
  out.push(
    '',
    `${c.bold('pass rate')} ${rate} (${s.passed}/${s.trials} trials, ${s.cases} cases) · ${s.llmCalls} model calls · ${s.promptTokens + s.completionTokens} tokens${cost}${judge} · p95 ${formatMs(Math.round(s.p95LatencyMs))} · ${formatMs(s.durationMs)}`,
  );
  return `${out.join('\n')}\n`;
}

/** A comparison as a terminal table: per scorer A, B, the delta with its interval, the sign test; the cases that changed; the verdict. */
export function formatComparison(result: Comparison, options: { color?: boolean; maxCases?: number } = {}): string {
  const c = pc.createColors(options.color ?? false);
  const rows = result.scorers.map((s) => [
    s.name,
    num(s.a.mean),
    num(s.b.mean),
    `${s.delta.mean >= 0 ? '+' : ''}${num(s.delta.mean)}`,
    `[${num(s.delta.low)}, ${num(s.delta.high)}]`,
    s.signTest.pValue.toPrecision(2),
    s.verdict,
  ]);
  const max = options.maxCases ?? 20;
  const list = (ids: string[]) =>
    ids.length > max ? `${ids.slice(0, max).join(', ')} … (+${ids.length - max})` : ids.join(', ');
  const out = [
    c.bold(
      `${result.a.name} (${result.a.id}) → ${result.b.name} (${result.b.id}) · ${result.sharedCases} shared cases`,
    ),
    ...table(['scorer', 'A', 'B', 'Δ', '95% CI (paired bootstrap)', 'sign p', 'verdict'], rows),
    '',
    `pass rate ${pct(result.passRate.a)} → ${pct(result.passRate.b)}`,
    `${c.green('fixed')} ${result.fixed.length}${result.fixed.length ? `: ${list(result.fixed)}` : ''}`,
    `${c.red('broken')} ${result.broken.length}${result.broken.length ? `: ${list(result.broken)}` : ''}`,
  ];
  if (result.onlyInA.length || result.onlyInB.length)
    out.push(`only in A: ${result.onlyInA.length} · only in B: ${result.onlyInB.length}`);
  const verdict =
    result.verdict === 'regression'
      ? c.red('REGRESSION')
      : result.verdict === 'improvement'
        ? c.green('improvement')
        : 'unchanged';
  out.push('', `${c.bold('verdict')} ${verdict}`, ...result.reasons.map((r) => `  ${r}`));
  return `${out.join('\n')}\n`;
}
