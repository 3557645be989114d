import pc from 'picocolors';
import type { AgentEvent } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import { summarizeTrace, type TraceStep } from './summarize-trace.js';

export interface RenderTimelineOptions {
  /** ANSI colours. Default false (the CLI turns them on for a TTY without NO_COLOR). */
  color?: boolean;
  /** Characters of text shown per thought, output or observation before cutting. Default 300. */
  maxText?: number;
}

/**
 * A run as a readable terminal timeline: header, each step with its model calls (duration, tokens),
 * thoughts, tool calls (input, duration, output or error), warnings and invalid replies, then the
 * final status with totals. Pure: events in, text out.
 *
 * @example
 * process.stdout.write(renderTimeline(readTrace('run.jsonl'), { color: true }));
 */
export function renderTimeline(events: readonly AgentEvent[], options: RenderTimelineOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const max = options.maxText ?? 300;
  const cut = (text: string) => oneLine(text, max);
  const summary = summarizeTrace(events);
  const lines: string[] = [];
  const { start, end } = summary;
  if (start) {
    lines.push(
      `${c.bold('run')} ${start.runId}  ${c.dim('model')} ${start.model}  ${c.dim('protocol')} ${start.protocol}`,
    );
    if (start.tools.length) lines.push(`${c.dim('tools')} ${start.tools.join(', ')}`);
    lines.push(`${c.dim('input')} ${cut(start.input)}`);
  }
  for (const note of summary.notes) lines.push(...noteLines(note, c, cut));
  for (const step of summary.steps) lines.push('', ...stepLines(step, c, cut));
  lines.push('');
  if (end) {
    const colour = end.status === 'done' ? c.green : c.red;
    const u = end.usage;
    const cost = u.costUsd === undefined ? '' : ` · $${u.costUsd.toFixed(4)}`;
    lines.push(
      `${colour(c.bold(end.status))} in ${formatMs(end.durationMs)} · ${summary.steps.length} steps · ${u.llmCalls} LLM calls · ${u.promptTokens} prompt + ${u.completionTokens} completion tokens${usageDetail(u)}${u.estimated ? ' (estimated)' : ''}${cost}`,
    );
    const repairs = repairLine(events);
    if (repairs) lines.push(c.yellow(repairs));
    if (end.error) lines.push(c.red(`error ${end.error.code}: ${cut(end.error.message)}`));
    if (end.output) lines.push(`${c.bold('output')} ${cut(end.output)}`);
  } else {
    lines.push(c.yellow('no run_end: the run did not finish (crashed or still running)'));
  }
  return `${lines.join('\n')}\n`;
}

type Colors = ReturnType<typeof pc.createColors>;

function stepLines(step: TraceStep, c: Colors, cut: (s: string) => string): string[] {
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
    lines.push(`  ${c.yellow('→')} ${c.bold(tool.tool)} ${input}  ${ms}`);
    if (tool.ok === false) lines.push(`    ${c.red('✗')} ${c.red(cut(tool.error ?? tool.output ?? 'failed'))}`);
    else if (tool.output !== undefined) lines.push(`    ${c.green('←')} ${cut(tool.output)}`);
  }
  for (const note of step.notes) lines.push(...noteLines(note, c, cut));
  if (step.final !== undefined) lines.push(`  ${c.green(c.bold('final'))} ${cut(step.final)}`);
  return lines;
}

function noteLines(event: AgentEvent, c: Colors, cut: (s: string) => string): string[] {
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

/**
 * The replies read through a formatting slip, counted per habit (`2 replies repaired: fenced_reply ×2`),
 * from the run's own `reply_repaired` warnings; undefined when there were none.
 */
function repairLine(events: readonly AgentEvent[]): string | undefined {
  const rootId = events.find((e) => e.type === 'run_start' && !e.parentRunId)?.runId ?? events[0]?.runId;
  const repairs = events.filter((e) => e.runId === rootId && e.type === 'warning' && e.code === 'reply_repaired');
  if (repairs.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const e of repairs) {
    for (const habit of (e.type === 'warning' && e.habits) || ['repaired JSON']) {
      counts.set(habit, (counts.get(habit) ?? 0) + 1);
    }
  }
  const detail = [...counts].map(([habit, n]) => `${habit} ×${n}`).join(', ');
  return `${repairs.length} ${repairs.length === 1 ? 'reply' : 'replies'} repaired: ${detail}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
