import { escapeHtml as esc } from '../../trace/index.js';
import type { Comparison } from '../experiment/compare-experiments.js';
import type { ExperimentMeta, ExperimentSummary, TrialRecord } from '../experiment/experiment-types.js';
import { evalHtmlPage } from './eval-html-page.js';

const CSS = `body{margin:0;padding:24px;font:14px/1.5 system-ui,sans-serif;color:#1d2330}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse}th,td{border-bottom:1px solid #e5e7eb;padding:3px 8px;text-align:left;vertical-align:top}.pass{color:#15803d}.fail{color:#b91c1c}
.charts{display:flex;flex-wrap:wrap;gap:16px}figure{margin:0}figcaption{font-size:12px;color:#555}small{color:#555}`;

const pct = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/** A histogram of scores in 10 bins, as inline SVG. */
export function histogramSvg(scores: readonly number[], label: string): string {
  const bins = new Array(10).fill(0) as number[];
  for (const s of scores) bins[Math.min(9, Math.floor(s * 10))]++;
  const top = Math.max(1, ...bins);
  const bars = bins
    .map((n, i) => {
      const h = Math.round((n / top) * 80);
      return `<rect x="${i * 22 + 2}" y="${90 - h}" width="20" height="${h}" fill="${i >= 5 ? '#15803d' : '#b91c1c'}"><title>${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}: ${n}</title></rect>`;
    })
    .join('');
  return `<figure><svg xmlns="http://www.w3.org/2000/svg" width="224" height="106" role="img" aria-label="${esc(label)} score distribution">${bars}<line x1="0" y1="90" x2="224" y2="90" stroke="#999"/><text x="0" y="104" font-size="10">0</text><text x="214" y="104" font-size="10">1</text></svg><figcaption>${esc(label)}</figcaption></figure>`;
}

/** One row per changed case: A's score and B's as two bars, as inline SVG. */
export function caseDiffSvg(rows: readonly { id: string; a: number; b: number }[]): string {
  const height = rows.length * 18 + 8;
  const body = rows
    .map((r, i) => {
      const y = i * 18 + 4;
      return `<text x="0" y="${y + 11}" font-size="11">${esc(r.id.length > 22 ? `${r.id.slice(0, 21)}…` : r.id)}</text><rect x="150" y="${y}" width="${Math.round(r.a * 150)}" height="7" fill="#94a3b8"><title>A ${r.a.toFixed(3)}</title></rect><rect x="150" y="${y + 7}" width="${Math.round(r.b * 150)}" height="7" fill="${r.b < r.a ? '#b91c1c' : '#15803d'}"><title>B ${r.b.toFixed(3)}</title></rect>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="310" height="${height}" role="img" aria-label="per-case scores, A grey, B coloured">${body}</svg>`;
}

/**
 * An experiment as one self-contained HTML page: summary, per scorer its interval and a score
 * histogram (inline SVG), and a row per trial. With a comparison, the verdict, the scorer deltas and a
 * per-case chart of the cases whose score changed.
 */
export async function renderExperimentHtml(
  experiment: {
    meta: ExperimentMeta;
    summary: ExperimentSummary;
    trials: AsyncIterable<TrialRecord> | Iterable<TrialRecord>;
  },
  options: {
    comparison?: Comparison;
    changed?: readonly { id: string; a: number; b: number }[];
    maxRows?: number;
  } = {},
): Promise<string> {
  const { meta, summary: s } = experiment;
  const scores = new Map<string, number[]>(Object.keys(s.scorers).map((n) => [n, []]));
  const rows: string[] = [];
  const maxRows = options.maxRows ?? 5_000;
  for await (const t of experiment.trials) {
    for (const x of t.scores) scores.get(x.name)?.push(x.score);
    if (rows.length >= maxRows) continue;
    const cells = t.scores
      .map(
        (x) =>
          `<td class="${x.pass ? 'pass' : 'fail'}" title="${esc(x.error ?? x.reason ?? '')}">${x.score.toFixed(2)}</td>`,
      )
      .join('');
    rows.push(
      `<tr><td>${esc(t.caseId)}${meta.trials > 1 ? ` #${t.trial + 1}` : ''}</td><td class="${t.pass ? 'pass' : 'fail'}">${t.pass ? '✓' : '✗'}</td>${cells}<td><small>${esc(t.output.slice(0, 200))}</small></td></tr>`,
    );
  }
  const names = Object.keys(s.scorers);
  const scorerRows = names
    .map((n) => {
      const e = s.scorers[n];
      return `<tr><td>${esc(n)}</td><td>${e.mean.toFixed(3)}</td><td>[${e.low.toFixed(3)}, ${e.high.toFixed(3)}]</td><td>${pct(e.passRate)}</td><td>${e.errors}</td></tr>`;
    })
    .join('');
  const charts = names.map((n) => histogramSvg(scores.get(n) ?? [], n)).join('');
  const body = `<p id="summary">Pass rate <strong>${pct(s.passRate)}</strong> (${s.passed}/${s.trials} trials, ${s.cases} cases) · ${s.llmCalls} model calls · ${s.promptTokens + s.completionTokens} tokens${s.costUsd === undefined ? '' : ` · $${s.costUsd.toFixed(4)}`} · ${esc(meta.startedAt)}</p>
${options.comparison ? comparisonHtml(options.comparison, options.changed ?? []) : ''}
<h2>Scorers</h2>
<table><thead><tr><th>scorer</th><th>mean</th><th>95% CI</th><th>pass</th><th>errors</th></tr></thead><tbody>${scorerRows}</tbody></table>
<h2>Score distributions</h2><div class="charts">${charts}</div>
<h2>Trials</h2>
<table><thead><tr><th>case</th><th>pass</th>${names.map((n) => `<th>${esc(n)}</th>`).join('')}<th>output</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
  return evalHtmlPage({ name: meta.name, css: CSS, body, images: true });
}

function comparisonHtml(result: Comparison, changed: readonly { id: string; a: number; b: number }[]): string {
  const rows = result.scorers
    .map(
      (x) =>
        `<tr><td>${esc(x.name)}</td><td>${x.a.mean.toFixed(3)}</td><td>${x.b.mean.toFixed(3)}</td><td>${x.delta.mean.toFixed(3)} [${x.delta.low.toFixed(3)}, ${x.delta.high.toFixed(3)}]</td><td>${x.signTest.pValue.toPrecision(2)}</td><td class="${x.verdict === 'regressed' ? 'fail' : x.verdict === 'improved' ? 'pass' : ''}">${x.verdict}</td></tr>`,
    )
    .join('');
  return `<h2>Compared with ${esc(result.a.name)} (${esc(result.a.id)}): <span class="${result.verdict === 'regression' ? 'fail' : 'pass'}">${result.verdict}</span></h2>
<ul>${result.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>
<table><thead><tr><th>scorer</th><th>A</th><th>B</th><th>Δ (95% CI)</th><th>sign p</th><th>verdict</th></tr></thead><tbody>${rows}</tbody></table>
<p><span class="pass">fixed ${result.fixed.length}</span> · <span class="fail">broken ${result.broken.length}</span></p>
${changed.length ? `<h2>Per-case diff (A grey, B coloured)</h2>${caseDiffSvg(changed)}` : ''}`;
}
