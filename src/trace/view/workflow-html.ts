import { plural } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import { stepBars, stepSection } from './agent-step-html.js';
import { EXPAND_BUTTONS, escapeHtml as esc } from './html-assets.js';
import type { WorkflowTraceStep, WorkflowTraceSummary } from './summarize-workflow.js';

/**
 * The body of the HTML report for a workflow run: its header, a timeline with one row per step
 * (parallel steps and foreach items overlap; the waits between passes are cut out, each pass start
 * marked), and one expandable section per step with its output, error or suspend payload, and an
 * agent step's own steps inside it. `ids` prefixes its element ids when a page holds several runs.
 */
export function workflowReport(summary: WorkflowTraceSummary, title: string, ids = ''): string {
  return `${header(summary, title, ids)}
<h2>Timeline</h2>
${timeline(summary, ids)}
<h2>Steps</h2>
${EXPAND_BUTTONS}
${summary.steps.map((step, i) => section(step, `${ids}w${i}`)).join('\n')}`;
}

function header(summary: WorkflowTraceSummary, title: string, ids: string): string {
  const { usage } = summary;
  const rows: [string, string][] = [
    ['workflow', summary.workflow],
    ['run', summary.runId],
    ['definition', summary.definitionHash],
    ['input', json(summary.input)],
  ];
  if (summary.passes.length > 1) {
    const resumed = summary.passes.filter((p) => p.start.resumed).length;
    rows.push(['passes', `${summary.passes.length} (${resumed} resumed)`]);
  }
  rows.push(['duration', formatMs(summary.durationMs)]);
  rows.push(['LLM calls', String(usage.llmCalls)]);
  rows.push([
    'tokens',
    `${usage.promptTokens} prompt + ${usage.completionTokens} completion${usageDetail(usage)}${usage.estimated ? ' (estimated)' : ''}`,
  ]);
  if (usage.costUsd !== undefined) rows.push(['cost', `$${usage.costUsd.toFixed(4)}`]);
  if (summary.error) rows.push(['error', `${summary.error.code}: ${summary.error.message}`]);
  const waiting = summary.steps.filter((s) => s.status === 'suspended' && s.kind !== 'workflow');
  if (summary.status === 'suspended' && waiting.length) {
    rows.push([
      'waiting for',
      waiting.map((s) => (s.event ? `event "${s.event}"` : `step "${s.stepId}" (${s.path})`)).join(', '),
    ]);
  }
  const meta = rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('');
  const status = summary.status === 'running' ? 'unfinished' : summary.status;
  const output =
    summary.output === undefined ? '' : `<h2>Output</h2><pre id="${ids}output">${esc(json(summary.output))}</pre>`;
  return `<h1>${esc(title)}</h1>
<p>Status: <span id="${ids}status" class="status ${esc(status)}">${esc(status)}</span></p>
<dl class="meta">${meta}</dl>
${output}`;
}

/**
 * A clock that runs only while a pass runs: a run suspended for a day and resumed shows both passes
 * side by side, not a day of empty track.
 */
function activeClock(summary: WorkflowTraceSummary): { x: (ts: number) => number; total: number; marks: number[] } {
  const offsets: number[] = [];
  let total = 0;
  for (const pass of summary.passes) {
    offsets.push(total);
    total += Math.max(0, pass.endTs - pass.startTs);
  }
  const x = (ts: number) => {
    let i = summary.passes.length - 1;
    while (i > 0 && ts < summary.passes[i]!.startTs) i--;
    const pass = summary.passes[i]!;
    return offsets[i]! + Math.min(Math.max(0, ts - pass.startTs), pass.endTs - pass.startTs);
  };
  return { x, total: Math.max(1, total), marks: offsets.slice(1) };
}

function timeline(summary: WorkflowTraceSummary, ids: string): string {
  const clock = activeClock(summary);
  const pct = (v: number) => ((v / clock.total) * 100).toFixed(2);
  const pos = (from: number, to: number) => {
    const a = clock.x(from);
    return `left:${pct(a)}%;width:${pct(Math.max(0, clock.x(to) - a))}%`;
  };
  const marks = clock.marks.map((m) => `<div class="mark" style="left:${pct(m)}%"></div>`).join('');
  const rows = summary.steps.map((step, i) => {
    const endTs = step.endTs ?? summary.passes[step.pass]?.endTs ?? step.startTs;
    const bars = [
      `<div class="bar step ${esc(step.status)}" title="${esc(`${step.path} ${step.status}`)}" style="${pos(step.startTs, endTs)}"></div>`,
    ];
    for (const agentStep of step.agent?.steps ?? []) bars.push(...stepBars(agentStep, pos));
    const info = `${step.status}${step.ms === undefined ? '' : ` · ${formatMs(step.ms)}`}`;
    return `<div class="row" data-step="${ids}w${i}" data-path="${esc(step.path)}"><span class="label" style="padding-left:${step.depth * 12}px" title="${esc(step.path)}">${esc(label(step))}</span><div class="track">${marks}${bars.join('')}</div><span class="info">${esc(info)}</span></div>`;
  });
  return `<div class="timeline workflow">${rows.join('\n')}${WORKFLOW_LEGEND}</div>`;
}

const WORKFLOW_LEGEND =
  '<p class="legend"><span><i style="background:#15803d;opacity:.45"></i>step done</span><span><i style="background:#b91c1c;opacity:.45"></i>failed</span><span><i style="background:#ca8a04;opacity:.45"></i>suspended</span><span><i style="background:#7c3aed"></i>model call</span><span><i style="background:#d97706"></i>tool call</span><span><i style="border-left:2px dashed #6b7280;border-radius:0"></i>a pass resumes</span></p>';

/** A step's section; `key` names it (`w3`, after the page's run prefix), as its timeline row does. */
function section(step: WorkflowTraceStep, key: string): string {
  const parts: string[] = [];
  if (step.payload !== undefined) {
    parts.push(`<p><span class="kind">Suspended with</span></p><pre class="payload">${esc(json(step.payload))}</pre>`);
  }
  if (step.event !== undefined) parts.push(`<p><span class="kind">Waits for event</span> ${esc(step.event)}</p>`);
  const agent = step.agent;
  if (agent) {
    const u = agent.usage;
    const model = agent.start ? ` · ${agent.start.model}` : '';
    parts.push(
      `<p class="agent"><span class="kind">Agent run</span> ${esc(`${agent.start?.runId ?? ''}${model} · ${plural(u.llmCalls, 'LLM call')} · ${u.promptTokens} prompt + ${u.completionTokens} completion tokens${agent.end ? ` · ${agent.end.status}` : ''}`)}</p>`,
    );
    for (const agentStep of agent.steps) parts.push(stepSection(agentStep, `step-${key}-`));
  }
  // A nested workflow's result is its steps', each in its own section.
  if (step.kind !== 'workflow' && step.status === 'failed') {
    parts.push(`<pre class="error">${esc(step.error ?? 'failed')}</pre>`);
  } else if (step.kind !== 'workflow' && step.output !== undefined) {
    parts.push(`<p><span class="kind">Output</span></p><pre class="output">${esc(json(step.output))}</pre>`);
  }
  const info = [
    step.kind === 'step' ? '' : step.kind,
    step.ms === undefined ? '' : formatMs(step.ms),
    step.resumed ? 'resumed' : '',
    `pass ${step.pass + 1}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return `<details class="step wstep" id="step-${key}" data-path="${esc(step.path)}" style="margin-left:${step.depth * 16}px"><summary>${esc(label(step))} <span class="status ${esc(step.status)}">${esc(step.status)}</span><span class="info">${esc(info)}</span></summary>
${parts.join('\n')}
</details>`;
}

/** The last segment of a step's path (`1.draft`, `send[2]`): its parents show by indentation. */
function label(step: WorkflowTraceStep): string {
  return step.path.split('/').at(-1) ?? step.path;
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
}
