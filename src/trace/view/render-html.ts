import { type AgentEvent, contentText, type Message } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import { escapeHtml as esc, REPORT_CSS, REPORT_JS } from './html-assets.js';
import { summarizeTrace, type TraceModelCall, type TraceStep, type TraceSummary } from './summarize-trace.js';

export interface RenderHtmlOptions {
  /** The page title. Default `thinkflow trace <runId>`. */
  title?: string;
}

/**
 * One self-contained HTML page for a run (inline CSS and JS, no external URL, works offline): the
 * timeline as duration bars, each step expandable with every model request and reply, tool calls,
 * token use per step and the final status. Every piece of trace text is escaped.
 *
 * @example
 * writeFileSync('report.html', renderHtml(readTrace('run.jsonl')));
 */
export function renderHtml(events: readonly AgentEvent[], options: RenderHtmlOptions = {}): string {
  const summary = summarizeTrace(events);
  const title = options.title ?? `thinkflow trace ${summary.start?.runId ?? ''}`.trim();
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
${header(summary, title)}
<h2>Timeline</h2>
${timeline(summary)}
<h2>Steps</h2>
<p><button type="button" data-expand="all">Expand all</button><button type="button" data-expand="none">Collapse all</button></p>
${summary.notes.map(note).join('\n')}
${summary.steps.map(stepSection).join('\n')}
<script>${REPORT_JS}</script>
</body>
</html>
`;
}

function header(summary: TraceSummary, title: string): string {
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
  const output = end?.output ? `<h2>Output</h2><pre id="output">${esc(end.output)}</pre>` : '';
  return `<h1>${esc(title)}</h1>
<p>Status: <span id="status" class="status ${esc(status)}">${esc(status)}</span></p>
<dl class="meta">${meta}</dl>
${output}`;
}

function timeline(summary: TraceSummary): string {
  const t0 = summary.startTs;
  const span = Math.max(1, summary.endTs - t0);
  const pos = (from: number, to: number) =>
    `left:${(((from - t0) / span) * 100).toFixed(2)}%;width:${((Math.max(0, to - from) / span) * 100).toFixed(2)}%`;
  const rows = summary.steps.map((step) => {
    const bars = [`<div class="bar step" style="${pos(step.startTs, step.endTs)}"></div>`];
    for (const call of step.modelCalls) {
      const endTs = call.response?.ts ?? step.endTs;
      const from = call.request?.ts ?? endTs - (call.response?.ms ?? 0);
      bars.push(
        `<div class="bar model" title="model ${call.response ? formatMs(call.response.ms) : '?'}" style="${pos(from, endTs)}"></div>`,
      );
    }
    for (const tool of step.tools) {
      if (tool.startTs === undefined) continue;
      const cls = tool.ok === false ? 'bar tool failed' : 'bar tool';
      const title = `${tool.tool} ${tool.ms === undefined ? '?' : formatMs(tool.ms)}`;
      bars.push(
        `<div class="${cls}" title="${esc(title)}" style="${pos(tool.startTs, tool.startTs + (tool.ms ?? 0))}"></div>`,
      );
    }
    const info = `${formatMs(step.endTs - step.startTs)} · ${tokens(step)} tok`;
    return `<div class="row" data-step="${step.step}"><span class="label">step ${step.step}</span><div class="track">${bars.join('')}</div><span class="info">${esc(info)}</span></div>`;
  });
  const legend =
    '<p class="legend"><span><i style="background:#2563eb;opacity:.3"></i>step</span><span><i style="background:#7c3aed"></i>model call</span><span><i style="background:#d97706"></i>tool call</span></p>';
  return `<div class="timeline">${rows.join('\n')}${legend}</div>`;
}

function stepSection(step: TraceStep): string {
  const toolNames = step.tools.map((t) => t.tool).join(', ');
  const info = `${formatMs(step.endTs - step.startTs)} · ${step.usage.promptTokens} prompt + ${step.usage.completionTokens} completion tokens${toolNames ? ` · ${toolNames}` : ''}${step.final !== undefined ? ' · final' : ''}`;
  const parts: string[] = [];
  for (const [i, call] of step.modelCalls.entries()) parts.push(modelCall(call, i));
  for (const text of step.thoughts) parts.push(`<p class="thought"><span class="kind">Thought</span> ${esc(text)}</p>`);
  if (step.tools.length) {
    const rows = step.tools.map((tool) => {
      const result =
        tool.ok === false
          ? `<pre class="error">${esc(tool.error ?? tool.output ?? 'failed')}</pre>`
          : `<pre>${esc(tool.output ?? '')}</pre>`;
      return `<tr><td class="tool-name">${esc(tool.tool)}</td><td><pre>${esc(JSON.stringify(tool.input, null, 2) ?? '')}</pre></td><td>${esc(tool.ms === undefined ? 'unfinished' : formatMs(tool.ms))}</td><td>${result}</td></tr>`;
    });
    parts.push(
      `<table class="tools"><tr><th>tool</th><th>input</th><th>time</th><th>output</th></tr>${rows.join('')}</table>`,
    );
  }
  for (const text of step.observations)
    parts.push(`<p><span class="kind">Observation</span></p><pre>${esc(text)}</pre>`);
  for (const event of step.notes) parts.push(note(event));
  if (step.final !== undefined)
    parts.push(`<p><span class="kind">Final answer</span></p><pre class="final">${esc(step.final)}</pre>`);
  return `<details class="step" id="step-${step.step}"><summary>Step ${step.step}<span class="info">${esc(info)}</span></summary>
${parts.join('\n')}
</details>`;
}

function modelCall(call: TraceModelCall, index: number): string {
  const r = call.response;
  const parts: string[] = [];
  if (call.request) {
    const tools = call.request.tools?.length ? ` · tools: ${call.request.tools.map((t) => t.name).join(', ')}` : '';
    parts.push(
      `<details class="call request"><summary>Model request ${index + 1} (${call.request.messages.length} messages${esc(tools)})</summary>${call.request.messages.map(message).join('')}</details>`,
    );
  }
  if (r) {
    const usage = r.usage
      ? `${r.usage.promptTokens} → ${r.usage.completionTokens} tokens${usageDetail(r.usage)}`
      : 'no usage';
    const reasoning = r.reasoning
      ? `<p><span class="kind">reasoning</span></p><pre class="reasoning">${esc(r.reasoning)}</pre>`
      : '';
    const cached = r.cached ? ' <span class="cached">cached</span>' : '';
    const calls = r.toolCalls?.length
      ? `<p><span class="kind">tool calls</span></p><pre>${esc(JSON.stringify(r.toolCalls, null, 2))}</pre>`
      : '';
    parts.push(
      `<details class="call response"><summary>Model reply ${index + 1} (${esc(`${formatMs(r.ms)} · ${usage}`)})${cached}</summary>${reasoning}<pre>${esc(r.text)}</pre>${calls}</details>`,
    );
  }
  return parts.join('\n');
}

function message(m: Message): string {
  const extra =
    m.role === 'assistant' && m.toolCalls?.length
      ? `<pre>${esc(JSON.stringify(m.toolCalls, null, 2))}</pre>`
      : m.role === 'tool'
        ? `<p class="info">answers ${esc(m.toolCallId)}</p>`
        : '';
  return `<p><span class="kind">${esc(m.role)}</span></p><pre>${esc(contentText(m.content))}</pre>${extra}`;
}

function note(event: AgentEvent): string {
  switch (event.type) {
    case 'invalid_output':
      return `<p class="invalid"><span class="kind">Invalid reply</span> ${esc(event.reason)}</p><pre>${esc(event.raw)}</pre>`;
    case 'warning':
      return `<p class="warning"><span class="kind">Warning ${esc(event.code)}</span> ${esc(event.message)}</p>`;
    case 'cache_hit':
      return `<p class="cached">cache hit ${esc(event.key.slice(0, 12))}</p>`;
    default:
      return `<details class="call"><summary>${esc(event.type)}</summary><pre>${esc(JSON.stringify(event, null, 2))}</pre></details>`;
  }
}

function tokens(step: TraceStep): number {
  return step.usage.promptTokens + step.usage.completionTokens;
}
