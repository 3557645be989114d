import { plural } from '../../core/index.js';
import type { EvalCaseReport, EvalReport, EvalRunReport } from '../../eval/index.js';
import { isComparison, renderComparison } from './compare-view.js';
import { h, mount } from './dom.js';
import { fileDrop } from './file-drop.js';
import { unfollow } from './live-run.js';
import { usd } from './render-tree.js';
import { type LooseEvent, traceFileRuns, treeOf } from './run-tree.js';
import { shell } from './shell.js';
import { stepList } from './step-list.js';

/** A run of the report as `thinkflow eval` writes it, with the run id it adds (older reports lack it). */
type ReportRun = EvalRunReport & { runId?: string };

/** The traces opened with the report, by their root run's id. */
type Traces = Map<string, LooseEvent[]>;

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/**
 * Opens an eval report (`thinkflow eval -o report.json`), with the runs' traces if they came along
 * (`--traces DIR`): pass or fail per case, its score, its failed checks, and a link from each run to
 * its trace (drawn below the table) or, without one, to the run of that id on this server.
 */
export function evalView(): void {
  unfollow();
  const output = h('div', { id: 'eval-output' });
  const open = async (files: File[]) => {
    const traces: Traces = new Map();
    let report: EvalReport | undefined;
    try {
      for (const file of files) {
        const text = await file.text();
        const comparison = comparisonOf(text);
        if (comparison) return mount(output, ...renderComparison(comparison));
        if (/\.(jsonl|ndjson)$/i.test(file.name)) {
          // Each run of the file by its id (a file `--trace` wrote several runs to holds them all).
          for (const run of traceFileRuns(text)) {
            const start = run.find((e) => e.type === 'run_start' && !e.parentRunId) ?? run[0];
            if (start) traces.set(start.runId, run);
          }
        } else report = readReport(text, file.name);
      }
    } catch (error) {
      mount(output, h('p', { class: 'error-text' }, (error as Error).message));
      return;
    }
    if (!report) {
      mount(output, h('p', { class: 'error-text' }, 'Open the report (the JSON file) along with the traces.'));
      return;
    }
    mount(output, ...renderReport(report, traces));
  };
  const drop = fileDrop({
    id: 'eval-drop',
    inputId: 'eval-file',
    accept: '.json,.jsonl,.ndjson',
    multiple: true,
    label:
      'Drop an eval report (thinkflow eval -o report.json), with its traces (--traces DIR) if you have them, or a comparison of two experiments (thinkflow eval compare a b --json > compare.json), or ',
    onFiles: (files) => void open(files),
  });
  shell('Eval', h('div', { class: 'panel' }, drop, output));
}

/** The comparison a file holds (`thinkflow eval compare a b --json`), if it is one. */
function comparisonOf(text: string) {
  try {
    const value: unknown = JSON.parse(text);
    return isComparison(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the report, checking just enough of its shape to draw it. */
function readReport(text: string, name: string): EvalReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not JSON: ${(error as Error).message}`);
  }
  const report = value as Partial<EvalReport> | null;
  if (!report || !Array.isArray(report.cases) || typeof report.runs !== 'number') {
    throw new Error(`${name} is not an eval report: it has no "cases" (write one with thinkflow eval -o report.json).`);
  }
  return report as EvalReport;
}

function renderReport(report: EvalReport, traces: Traces): HTMLElement[] {
  const trace = h('div', { id: 'eval-trace' });
  const showTrace = (run: ReportRun, events: LooseEvent[]) => {
    const steps = stepList({ raw: true, title: `Run ${run.runId}`, empty: 'No events in this trace.' });
    mount(trace, steps.el);
    steps.show(treeOf(events));
    trace.scrollIntoView();
  };
  const runLink = (run: ReportRun) => {
    const label = `#${run.repeat + 1} ${run.pass ? '✓' : '✗'} ${run.status}`;
    const events = run.runId ? traces.get(run.runId) : undefined;
    const attrs = { class: `eval-run ${run.pass ? 'pass' : 'fail'}`, 'data-run-id': run.runId ?? '' };
    if (events) return h('button', { ...attrs, onclick: () => showTrace(run, events) }, label);
    if (run.runId) return h('a', { ...attrs, href: `#run/${run.runId}` }, label);
    return h('span', attrs, label);
  };
  const row = (c: EvalCaseReport) => {
    const pass = c.runs.length > 0 && c.passed === c.runs.length;
    const failed = (c.runs as ReportRun[]).flatMap((run) =>
      run.checks
        .filter((check) => !check.pass)
        .map((check) => h('li', {}, `#${run.repeat + 1} ${check.check}${check.message ? `: ${check.message}` : ''}`)),
    );
    return h(
      'tr',
      { class: `case ${pass ? 'pass' : 'fail'}`, 'data-case': c.id },
      h('td', {}, h('strong', {}, c.id), h('div', { class: 'meta' }, c.input)),
      h('td', {}, h('span', { class: `status ${pass ? 'done' : 'failed'}` }, pass ? 'pass' : 'fail')),
      h('td', { class: 'score' }, `${c.passed}/${c.runs.length} (${percent(c.passRate)})`),
      h('td', {}, `${c.meanSteps.toFixed(1)} steps · ${Math.round(c.meanTokens)} tokens`),
      h(
        'td',
        {},
        h('div', { class: 'row' }, (c.runs as ReportRun[]).map(runLink)),
        failed.length > 0 && h('ul', { class: 'checks' }, failed),
      ),
    );
  };
  return [
    h('h2', {}, `Eval ${report.suite ?? ''}`),
    h(
      'p',
      { class: 'meta', id: 'eval-summary' },
      `${report.passed}/${plural(report.runs, 'run')} passed (${percent(report.passRate)})`,
      report.model && ` · model ${report.model}`,
      ` · ${report.promptTokens + report.completionTokens} tokens`,
      report.costUsd !== undefined && ` · ${usd(report.costUsd)}`,
      ` · ${new Date(report.startedAt).toLocaleString()}`,
      traces.size > 0 && ` · ${traces.size} traces`,
    ),
    h(
      'table',
      { id: 'eval-cases' },
      h(
        'tr',
        {},
        ['Case', 'Result', 'Score', 'Mean', 'Runs'].map((t) => h('th', {}, t)),
      ),
      report.cases.map(row),
    ),
    trace,
  ];
}
