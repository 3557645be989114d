import type { AgentEvent } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import { traceRuns } from '../trace-runs.js';
import { LEGEND, noteHtml, stepBars, stepSection } from './agent-step-html.js';
import { EXPAND_BUTTONS, escapeHtml as esc, REPORT_CSS, REPORT_JS } from './html-assets.js';
import { summarizeTrace, type TraceStep, type TraceSummary } from './summarize-trace.js';
import { summarizeWorkflowTrace } from './summarize-workflow.js';
import { workflowReport } from './workflow-html.js';

export interface RenderHtmlOptions {
  /** The page title. Default `thinkflow trace <runId>`. */
  title?: string;
}

/**
 * One self-contained HTML page for a run (inline CSS and JS, no external URL, works offline): the
 * timeline as duration bars, each step expandable with every model request and reply, tool calls,
 * token use per step and the final status. A workflow's trace (its root a `workflow_start`) shows the
 * workflow: each step by path as a bar (parallel steps overlap), its status, output, error or suspend
 * payload, an agent step's own steps under it. A trace of several runs (a file `--trace` appended to)
 * shows each run in turn. Every piece of trace text is escaped.
 *
 * @example
 * writeFileSync('report.html', renderHtml(readTrace('run.jsonl')));
 */
export function renderHtml(events: readonly AgentEvent[], options: RenderHtmlOptions = {}): string {
  // A file that holds several runs (`--trace` appends) shows each in turn, its ids made its own.
  const runs = traceRuns(events);
  if (runs.length <= 1) {
    const { title, body } = runReport(events, options.title, '');
    return page(title, body);
  }
  const title = options.title ?? `thinkflow trace: ${runs.length} runs`;
  const bodies = runs.map((run, i) => {
    const own = runReport(run, `run ${i + 1} of ${runs.length}`, `r${i + 1}-`);
    return `<section class="run">\n${own.body}\n</section>`;
  });
  return page(title, `<h1>${esc(title)}</h1>\n${bodies.join('\n<hr>\n')}`);
}

/** One run's report (an agent run or a workflow) under `title`; `ids` prefixes its element ids when a page holds several runs. */
function runReport(
  events: readonly AgentEvent[],
  given: string | undefined,
  ids: string,
): { title: string; body: string } {
  const workflow = summarizeWorkflowTrace(events);
  if (workflow) {
    const title = given ?? `thinkflow trace ${workflow.workflow} ${workflow.runId}`;
    return { title, body: workflowReport(workflow, title, ids) };
  }
  const summary = summarizeTrace(events);
  const title = given ?? `thinkflow trace ${summary.start?.runId ?? ''}`.trim();
  const body = `${header(summary, title, ids)}
<h2>Timeline</h2>
${timeline(summary, ids)}
<h2>Steps</h2>
${EXPAND_BUTTONS}
${summary.notes.map(noteHtml).join('\n')}
${summary.steps.map((step) => stepSection(step, `step-${ids}`)).join('\n')}`;
  return { title, body };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
${body}
<script>${REPORT_JS}</script>
</body>
</html>
`;
}

function header(summary: TraceSummary, title: string, ids: string): string {
  const { start, end, usage } = summary;
  const status = end ? end.status : 'unfinished';
  const rows: [string, string][] = [];
  if (start) {
    rows.push(['model', start.model], ['protocol', start.protocol], ['tools', start.tools.join(', ') || '(none)']);
    rows.push(['input', start.input]);
  }
  rows.push(['duration', formatMs(end?.durationMs ?? summary.endTs - summary.startTs)]);
  rows.push(['LLM calls', String(usage.llmCalls)]);
  rows.push([
    'tokens',
    `${usage.promptTokens} prompt + ${usage.completionTokens} completion${usageDetail(usage)}${usage.estimated ? ' (estimated)' : ''}`,
  ]);
  if (usage.costUsd !== undefined) rows.push(['cost', `$${usage.costUsd.toFixed(4)}`]);
  if (end?.error) rows.push(['error', `${end.error.code}: ${end.error.message}`]);
  const meta = rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('');
  const output = end?.output ? `<h2>Output</h2><pre id="${ids}output">${esc(end.output)}</pre>` : '';
  return `<h1>${esc(title)}</h1>
<p>Status: <span id="${ids}status" class="status ${esc(status)}">${esc(status)}</span></p>
<dl class="meta">${meta}</dl>
${output}`;
}

function timeline(summary: TraceSummary, ids: string): string {
  const t0 = summary.startTs;
  const span = Math.max(1, summary.endTs - t0);
  const pos = (from: number, to: number) =>
    `left:${(((from - t0) / span) * 100).toFixed(2)}%;width:${((Math.max(0, to - from) / span) * 100).toFixed(2)}%`;
  const rows = summary.steps.map((step) => {
    const bars = [`<div class="bar step" style="${pos(step.startTs, step.endTs)}"></div>`, ...stepBars(step, pos)];
    const info = `${formatMs(step.endTs - step.startTs)} · ${tokens(step)} tok`;
    return `<div class="row" data-step="${ids}${step.step}"><span class="label">step ${step.step}</span><div class="track">${bars.join('')}</div><span class="info">${esc(info)}</span></div>`;
  });
  return `<div class="timeline">${rows.join('\n')}${LEGEND}</div>`;
}

function tokens(step: TraceStep): number {
  return step.usage.promptTokens + step.usage.completionTokens;
}
