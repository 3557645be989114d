import type pc from 'picocolors';
import { type AgentEvent, describeCompaction } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import type { TraceStep } from './summarize-trace.js';

/** What the timeline's line builders share: the colours and the cut of long text. */
export interface LineStyle {
  c: Colors;
  cut: (text: string) => string;
}

export type Colors = ReturnType<typeof pc.createColors>;

/** A step of an agent run: model calls, thoughts, tool calls, notes and its final answer, indented by two. */
export function stepLines(step: TraceStep, style: LineStyle): string[] {
  const { c, cut } = style;
  const tokens = step.usage.promptTokens + step.usage.completionTokens;
  const lines = [
    `${c.bold(c.cyan(`step ${step.step}`))}  ${c.dim(`${formatMs(step.endTs - step.startTs)} · ${tokens} tokens`)}`,
  ];
  for (const call of step.modelCalls) {
    const r = call.response;
    if (!r) {
      lines.push(`  ${c.magenta('model')} ${c.dim('request sent, no reply')}`);
      continue;
    }
    const usage = r.usage
      ? `${r.usage.promptTokens}→${r.usage.completionTokens} tokens${usageDetail(r.usage)}`
      : 'no usage';
    const cached = r.cached ? ` ${c.green('cached')}` : '';
    lines.push(`  ${c.magenta('model')} ${c.dim(`${formatMs(r.ms)} · ${usage}`)}${cached}`);
    if (r.reasoning) lines.push(`  ${c.dim('reasoning')} ${c.dim(cut(r.reasoning))}`);
  }
  for (const text of step.thoughts) lines.push(`  ${c.blue('thought')} ${cut(text)}`);
  for (const tool of step.tools) {
    const input = tool.input === undefined ? '' : cut(JSON.stringify(tool.input) ?? '');
    const ms = tool.ms === undefined ? c.yellow('unfinished') : c.dim(formatMs(tool.ms));
    // A call made from inside another (code mode) sits under it, indented.
    const pad = tool.parentCallId ? '    ' : '  ';
    lines.push(`${pad}${c.yellow('→')} ${c.bold(tool.tool)} ${input}  ${ms}`);
    if (tool.ok === false) lines.push(`${pad}  ${c.red('✗')} ${c.red(cut(tool.error ?? tool.output ?? 'failed'))}`);
    else if (tool.output !== undefined) lines.push(`${pad}  ${c.green('←')} ${cut(tool.output)}`);
  }
  for (const note of step.notes) lines.push(...noteLines(note, style));
  if (step.final !== undefined) lines.push(`  ${c.green(c.bold('final'))} ${cut(step.final)}`);
  return lines;
}

/** A warning, invalid reply, cache hit or other note, as one or two indented lines. */
export function noteLines(event: AgentEvent, style: LineStyle): string[] {
  const { c, cut } = style;
  switch (event.type) {
    case 'invalid_output':
      return [`  ${c.red('invalid')} ${cut(event.reason)}`, `    ${c.dim(cut(event.raw))}`];
    case 'warning':
      if (event.code === 'reply_repaired') {
        return [`  ${c.yellow('repaired')} ${event.habits?.length ? event.habits.join(', ') : cut(event.message)}`];
      }
      return [`  ${c.yellow(`warning ${event.code}`)} ${cut(event.message)}`];
    case 'cache_hit':
      return [`  ${c.green('cache hit')} ${c.dim(event.key.slice(0, 12))}`];
    case 'context_compact':
      return [`  ${c.dim('context compact')} ${describeCompaction(event)}`];
    case 'reflection':
    case 'context_summary':
      return [`  ${c.dim(event.type)} ${cut('text' in event ? event.text : event.summary)}`];
    case 'plan_create':
    case 'plan_update':
      return [`  ${c.blue(event.type)} ${cut(event.plan.join(' | '))}`];
    case 'guardrail_trip':
      return [`  ${c.red(`guardrail ${event.guardrail}`)} ${event.action}: ${cut(event.reason)}`];
    default:
      return [`  ${c.dim(event.type)}`];
  }
}

/** Text on one line, whitespace folded, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
