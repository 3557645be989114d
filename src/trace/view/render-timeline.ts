import pc from 'picocolors';
import { type AgentEvent, plural } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import { traceRuns } from '../trace-runs.js';
import { summarizeTrace } from './summarize-trace.js';
import { summarizeWorkflowTrace } from './summarize-workflow.js';
import { type LineStyle, noteLines, oneLine, stepLines } from './timeline-lines.js';
import { workflowTimeline } from './workflow-timeline.js';

export interface RenderTimelineOptions {
  /** ANSI colours. Default false (the CLI turns them on for a TTY without NO_COLOR). */
  color?: boolean;
  /** Characters of text shown per thought, output or observation before cutting. Default 300. */
  maxText?: number;
}

/**
 * A run as a readable terminal timeline: header, each step with its model calls (duration, tokens),
 * thoughts, tool calls (input, duration, output or error), warnings and invalid replies, then the
 * final status with totals. A workflow's trace (its root a `workflow_start`) shows the workflow: each
 * step by path with its status, times and output, an agent step's own steps under it. A trace of
 * several runs (a file `--trace` appended to) shows each run in turn. Pure: events in, text out.
 *
 * @example
 * process.stdout.write(renderTimeline(readTrace('run.jsonl'), { color: true }));
 */
export function renderTimeline(events: readonly AgentEvent[], options: RenderTimelineOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const max = options.maxText ?? 300;
  const style: LineStyle = { c, cut: (text: string) => oneLine(text, max) };
  // A file that holds several runs (`--trace` appends) shows each in turn.
  const runs = traceRuns(events);
  if (runs.length <= 1) return runTimeline(events, style);
  return runs
    .map((run, i) => `${c.bold(c.cyan(`── run ${i + 1} of ${runs.length} ──`))}\n${runTimeline(run, style)}`)
    .join('\n');
}

/** One run's timeline (an agent run or a workflow). */
function runTimeline(events: readonly AgentEvent[], style: LineStyle): string {
  const { c, cut } = style;
  const workflow = summarizeWorkflowTrace(events);
  if (workflow) return `${workflowTimeline(workflow, style).join('\n')}\n`;
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
  for (const note of summary.notes) lines.push(...noteLines(note, style));
  for (const step of summary.steps) lines.push('', ...stepLines(step, style));
  lines.push('');
  if (end) {
    const colour = end.status === 'done' ? c.green : c.red;
    const u = end.usage;
    const cost = u.costUsd === undefined ? '' : ` · $${u.costUsd.toFixed(4)}`;
    lines.push(
      `${colour(c.bold(end.status))} in ${formatMs(end.durationMs)} · ${plural(summary.steps.length, 'step')} · ${plural(u.llmCalls, 'LLM call')} · ${u.promptTokens} prompt + ${u.completionTokens} completion tokens${usageDetail(u)}${u.estimated ? ' (estimated)' : ''}${cost}`,
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
