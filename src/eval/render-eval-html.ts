import { plural } from '../core/index.js';
import { formatMs } from '../llm/index.js';
import { escapeHtml as esc } from '../trace/index.js';
import type { EvalCaseReport, EvalReport } from './eval-report.js';
import { evalHtmlPage } from './report/eval-html-page.js';

const CSS = `body{margin:0;padding:24px;font:14px/1.5 system-ui,sans-serif;color:#1d2330}
h1{font-size:20px}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #e5e7eb;padding:4px 8px;text-align:left;vertical-align:top}
.pass{color:#15803d}.fail{color:#b91c1c}pre{white-space:pre-wrap;background:#f6f8fa;padding:6px;border-radius:4px;margin:2px 0;font:12px ui-monospace,monospace}
details summary{cursor:pointer}.bar{display:inline-block;height:10px;background:#15803d;border-radius:2px;vertical-align:middle}.track{display:inline-block;width:80px;height:10px;background:#fecaca;border-radius:2px;margin-right:6px}`;

/** The eval report as one self-contained HTML page (no external URL): summary, a row per case, each run's checks expandable. */
export function renderEvalHtml(report: EvalReport): string {
  const cost = report.costUsd === undefined ? '' : ` · $${report.costUsd.toFixed(4)}`;
  const body = `<p id="summary">Pass rate <strong>${esc(pct(report.passRate))}</strong> (${report.passed}/${plural(report.runs, 'run')}) · model ${esc(report.model ?? 'per case')} · ${report.promptTokens + report.completionTokens} tokens${esc(cost)} · ${esc(formatMs(report.durationMs))} · ${esc(report.startedAt)}</p>
<table><thead><tr><th>case</th><th>pass</th><th>steps</th><th>LLM calls</th><th>tokens</th><th>latency</th><th>runs</th></tr></thead>
<tbody>
${report.cases.map(row).join('\n')}
</tbody></table>`;
  return evalHtmlPage({ name: report.suite, css: CSS, body });
}

function row(k: EvalCaseReport): string {
  const cls = k.passed === k.runs.length ? 'pass' : 'fail';
  const width = Math.round(k.passRate * 80);
  const runs = k.runs
    .map((r) => {
      const checks = r.checks
        .map(
          (c) =>
            `<li class="${c.pass ? 'pass' : 'fail'}">${c.pass ? '✓' : '✗'} ${esc(c.check)}${c.message ? `: ${esc(c.message)}` : ''}</li>`,
        )
        .join('');
      return `<details><summary class="${r.pass ? 'pass' : 'fail'}">run ${r.repeat + 1}: ${esc(r.status)}</summary><pre>${esc(r.output || r.error || '')}</pre><ul>${checks}</ul></details>`;
    })
    .join('');
  return `<tr class="${cls}"><td>${esc(k.id)}<br><small>${esc(k.input)}</small></td><td><span class="track"><span class="bar" style="width:${width}px"></span></span>${k.passed}/${k.runs.length}</td><td>${k.meanSteps.toFixed(1)}</td><td>${k.meanLlmCalls.toFixed(1)}</td><td>${Math.round(k.meanTokens)}</td><td>${esc(formatMs(Math.round(k.meanDurationMs)))}</td><td>${runs}</td></tr>`;
}

function pct(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}
