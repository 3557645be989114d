import { plural } from '../../core/index.js';
import { formatMs, usageDetail } from '../../llm/index.js';
import type { WorkflowTraceStep, WorkflowTraceSummary } from './summarize-workflow.js';
import { type LineStyle, stepLines } from './timeline-lines.js';

/**
 * A workflow run as timeline lines: the header, each step by path (nested workflows indented) with
 * its status, start offset in its pass and duration, its output, error or suspend payload, an agent
 * step's own steps under it, then the run's status with totals.
 */
export function workflowTimeline(summary: WorkflowTraceSummary, style: LineStyle): string[] {
  const { c, cut } = style;
  const lines = [
    `${c.bold('workflow')} ${summary.workflow}  ${c.dim('run')} ${summary.runId}  ${c.dim('definition')} ${summary.definitionHash}`,
    `${c.dim('input')} ${cut(text(summary.input))}`,
  ];
  if (summary.passes.length > 1) {
    const resumed = summary.passes.filter((p) => p.start.resumed).length;
    lines.push(`${c.dim('passes')} ${summary.passes.length} (${resumed} resumed)`);
  }
  for (const step of summary.steps) {
    // A blank line before each step of the workflow itself; a nested workflow's steps stay together under it.
    if (step.depth === 0) lines.push('');
    lines.push(...workflowStepLines(step, { summary, style }));
  }
  lines.push('');
  const u = summary.usage;
  const cost = u.costUsd === undefined ? '' : ` · $${u.costUsd.toFixed(4)}`;
  const passes = summary.passes.length > 1 ? ` · ${summary.passes.length} passes` : '';
  const totals = `${formatMs(summary.durationMs)} · ${plural(summary.steps.filter((s) => s.kind !== 'workflow').length, 'step')}${passes} · ${plural(u.llmCalls, 'LLM call')} · ${u.promptTokens} prompt + ${u.completionTokens} completion tokens${usageDetail(u)}${u.estimated ? ' (estimated)' : ''}${cost}`;
  if (summary.status === 'running') {
    lines.push(c.yellow('no workflow_end: the run did not finish (crashed or still running)'));
    lines.push(c.dim(totals));
  } else {
    const colour = summary.status === 'done' ? c.green : summary.status === 'suspended' ? c.yellow : c.red;
    lines.push(`${colour(c.bold(summary.status))} in ${totals}`);
  }
  if (summary.error) lines.push(c.red(`error ${summary.error.code}: ${cut(summary.error.message)}`));
  if (summary.output !== undefined) lines.push(`${c.bold('output')} ${cut(text(summary.output))}`);
  const waiting = summary.steps.filter((s) => s.status === 'suspended' && s.kind !== 'workflow');
  if (summary.status === 'suspended' && waiting.length) {
    lines.push(
      `${c.yellow('waiting for')} ${waiting.map((s) => (s.event ? `event "${s.event}"` : `step "${s.stepId}" (${s.path})`)).join(', ')}`,
    );
  }
  return lines;
}

interface StepView {
  summary: WorkflowTraceSummary;
  style: LineStyle;
}

function workflowStepLines(step: WorkflowTraceStep, view: StepView): string[] {
  const { c, cut } = view.style;
  const indent = '  '.repeat(step.depth);
  const label = step.path.split('/').at(-1) ?? step.path;
  const colour = { done: c.green, failed: c.red, suspended: c.yellow, running: c.magenta }[step.status];
  const pass = view.summary.passes[step.pass];
  const times = [
    pass ? `+${formatMs(step.startTs - pass.startTs)}` : undefined,
    step.ms === undefined ? undefined : formatMs(step.ms),
    view.summary.passes.length > 1 ? `pass ${step.pass + 1}` : undefined,
  ].filter(Boolean);
  const kind = step.kind === 'step' ? '' : ` ${c.dim(step.kind)}`;
  const resumed = step.resumed ? ` ${c.dim('(resumed)')}` : '';
  const lines = [
    `${indent}${c.bold(c.cyan(label))}${kind}  ${colour(step.status)}${resumed}  ${c.dim(times.join(' · '))}`,
  ];
  const inner = `${indent}  `;
  if (step.payload !== undefined) lines.push(`${inner}${c.yellow('⏸')} ${c.dim('payload')} ${cut(text(step.payload))}`);
  if (step.event !== undefined && step.status === 'suspended') {
    lines.push(`${inner}${c.yellow('⏸')} ${c.dim('waits for event')} ${step.event}`);
  }
  const agent = step.agent;
  if (agent) {
    const u = agent.usage;
    const model = agent.start ? ` ${c.dim('model')} ${agent.start.model}` : '';
    lines.push(
      `${inner}${c.bold('agent')} ${agent.start?.runId ?? ''}${model}  ${c.dim(`${plural(u.llmCalls, 'LLM call')} · ${u.promptTokens}→${u.completionTokens} tokens${agent.end ? ` · ${agent.end.status}` : ''}`)}`,
    );
    for (const agentStep of agent.steps) lines.push(...stepLines(agentStep, view.style).map((l) => `${inner}  ${l}`));
  }
  if (step.kind === 'workflow') return lines;
  if (step.status === 'failed') lines.push(`${inner}${c.red('✗')} ${c.red(cut(step.error ?? 'failed'))}`);
  else if (step.output !== undefined) lines.push(`${inner}${c.green('←')} ${cut(text(step.output))}`);
  return lines;
}

/** A value as the timeline prints it: a string as it is, anything else as JSON. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
