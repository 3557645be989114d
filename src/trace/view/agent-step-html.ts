import { type AgentEvent, contentText, describeCompaction, type Message, plural } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import { escapeHtml as esc } from './html-assets.js';
import type { TraceModelCall, TraceStep } from './summarize-trace.js';

/** Where a bar goes on a timeline track, as a CSS `left` and `width`. */
export type BarPosition = (from: number, to: number) => string;

/** An agent step's model calls and tool calls as timeline bars. */
export function stepBars(step: TraceStep, pos: BarPosition): string[] {
  const bars: string[] = [];
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
    const title = `${tool.parentCallId ? `${tool.parentCallId} → ` : ''}${tool.tool} ${tool.ms === undefined ? '?' : formatMs(tool.ms)}`;
    bars.push(
      `<div class="${cls}" title="${esc(title)}" style="${pos(tool.startTs, tool.startTs + (tool.ms ?? 0))}"></div>`,
    );
  }
  return bars;
}

/** The timeline's key to its bar colours. */
export const LEGEND =
  '<p class="legend"><span><i style="background:#2563eb;opacity:.3"></i>step</span><span><i style="background:#7c3aed"></i>model call</span><span><i style="background:#d97706"></i>tool call</span></p>';

/**
 * An agent step's section of the HTML report: every model request and reply, thoughts, tool calls,
 * observations, notes and the final answer, in one `<details>` whose id is `idPrefix` + the step number.
 */
export function stepSection(step: TraceStep, idPrefix = 'step-'): string {
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
      const name = tool.parentCallId ? `↳ ${tool.tool}` : tool.tool;
      return `<tr${tool.parentCallId ? ' class="nested"' : ''}><td class="tool-name">${esc(name)}</td><td><pre>${esc(JSON.stringify(tool.input, null, 2) ?? '')}</pre></td><td>${esc(tool.ms === undefined ? 'unfinished' : formatMs(tool.ms))}</td><td>${result}</td></tr>`;
    });
    parts.push(
      `<table class="tools"><tr><th>tool</th><th>input</th><th>time</th><th>output</th></tr>${rows.join('')}</table>`,
    );
  }
  for (const text of step.observations)
    parts.push(`<p><span class="kind">Observation</span></p><pre>${esc(text)}</pre>`);
  for (const event of step.notes) parts.push(noteHtml(event));
  if (step.final !== undefined)
    parts.push(`<p><span class="kind">Final answer</span></p><pre class="final">${esc(step.final)}</pre>`);
  return `<details class="step" id="${idPrefix}${step.step}"><summary>Step ${step.step}<span class="info">${esc(info)}</span></summary>
${parts.join('\n')}
</details>`;
}

function modelCall(call: TraceModelCall, index: number): string {
  const r = call.response;
  const parts: string[] = [];
  if (call.request) {
    const tools = call.request.tools?.length ? ` · tools: ${call.request.tools.map((t) => t.name).join(', ')}` : '';
    parts.push(
      `<details class="call request"><summary>Model request ${index + 1} (${plural(call.request.messages.length, 'message')}${esc(tools)})</summary>${call.request.messages.map(message).join('')}</details>`,
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

/** A warning, invalid reply, cache hit or other event, as a paragraph or an expandable JSON block. */
export function noteHtml(event: AgentEvent): string {
  switch (event.type) {
    case 'invalid_output':
      return `<p class="invalid"><span class="kind">Invalid reply</span> ${esc(event.reason)}</p><pre>${esc(event.raw)}</pre>`;
    case 'warning':
      return `<p class="warning"><span class="kind">Warning ${esc(event.code)}</span> ${esc(event.message)}</p>`;
    case 'cache_hit':
      return `<p class="cached">cache hit ${esc(event.key.slice(0, 12))}</p>`;
    case 'context_compact':
      return `<details class="call"><summary>Context compact ${esc(describeCompaction(event))}</summary><pre>${esc(event.callIds.join('\n'))}</pre></details>`;
    default:
      return `<details class="call"><summary>${esc(event.type)}</summary><pre>${esc(JSON.stringify(event, null, 2))}</pre></details>`;
  }
}
