import { plural } from '../../core/index.js';
import { api } from './api.js';
import { h, mount } from './dom.js';
import { fileDrop } from './file-drop.js';
import { unfollow } from './live-run.js';
import { type LooseEvent, traceFileRuns, treeOf } from './run-tree.js';
import { agentNames, shell } from './shell.js';
import { stepList } from './step-list.js';

/** A run's question, cut to a line, to name it in the run picker. */
function inputOf(run: LooseEvent[]): string {
  const start = run.find((e) => e.type === 'run_start' && !e.parentRunId);
  const input = typeof start?.input === 'string' ? start.input : (run[0]?.runId ?? '');
  return input.length > 60 ? `${input.slice(0, 59)}…` : input;
}

/** What POST /v1/agents/:name/replay answers. */
interface ReplayReport {
  agent: string;
  status: string;
  recordedStatus?: string;
  steps: number;
  recordedSteps: number;
  divergence: { step: number; kind: string; message: string; expected?: string; actual?: string } | null;
}

/** Opens a JSONL trace file as a step tree, and replays it against a served agent to find where they part. */
export async function traceView(): Promise<void> {
  unfollow();
  // Without a token (or agents) the file still opens; only the replay needs the API.
  const agents = await agentNames().catch(() => [] as string[]);
  const output = h('div', { id: 'trace-output' });
  const open = async (file: File) => {
    const text = await file.text();
    let runs: LooseEvent[][];
    try {
      // A file `--trace` wrote several runs to holds them one after the other: one is shown (and replayed) at a time.
      runs = traceFileRuns(text);
    } catch (error) {
      mount(output, h('p', { class: 'error-text' }, `Not a JSONL trace: ${(error as Error).message}`));
      return;
    }
    let current = 0;
    const steps = stepList({ raw: true, title: file.name, empty: 'No events in this file.' });
    const result = h('div', { id: 'replay-result' });
    const picker =
      runs.length > 1 &&
      (h(
        'select',
        { name: 'trace-run', id: 'trace-run' },
        runs.map((run, i) => h('option', { value: String(i) }, `run ${i + 1} of ${runs.length}: ${inputOf(run)}`)),
      ) as HTMLSelectElement);
    if (picker) {
      picker.onchange = () => {
        current = Number(picker.value);
        mount(result);
        steps.show(treeOf(runs[current] ?? []));
      };
    }
    const select = h(
      'select',
      { name: 'replay-agent' },
      agents.map((a) => h('option', { value: a }, a)),
    ) as HTMLSelectElement;
    const button = h('button', { class: 'btn', id: 'replay' }, `Replay against ${agents[0] ?? ''}`);
    select.onchange = () => {
      button.textContent = `Replay against ${select.value}`;
    };
    button.onclick = async () => {
      mount(result, h('p', { class: 'meta' }, `Replaying against ${select.value}…`));
      try {
        const report = await api<ReplayReport>(`/v1/agents/${encodeURIComponent(select.value)}/replay`, {
          method: 'POST',
          jsonl: runs.length > 1 ? (runs[current] ?? []).map((e) => JSON.stringify(e)).join('\n') : text,
        });
        mount(result, renderReplay(report));
        if (report.divergence) steps.reveal(report.divergence.step);
      } catch (error) {
        mount(result, h('p', { class: 'error-text' }, (error as Error).message));
      }
    };
    mount(
      output,
      picker && h('div', { class: 'row' }, picker),
      agents.length > 0 && h('div', { class: 'row replay' }, select, button),
      result,
      steps.el,
    );
    steps.show(treeOf(runs[0] ?? []));
  };
  const drop = fileDrop({
    id: 'drop',
    inputId: 'trace-file',
    accept: '.jsonl,.ndjson,.json',
    label: 'Drop a JSONL trace here (thinkflow run --trace, runs export, Download JSONL trace) or ',
    onFiles: ([file]) => void open(file),
  });
  shell('Trace file', h('div', { class: 'panel' }, drop, output));
}

/** The replay's verdict: the same steps, or the first step where the agent does something else. */
function renderReplay(report: ReplayReport): HTMLElement {
  const d = report.divergence;
  const summary = `${report.agent} now: ${report.status} in ${plural(report.steps, 'step')} (recorded: ${report.recordedStatus ?? 'unfinished'} in ${report.recordedSteps})`;
  if (!d) {
    return h(
      'div',
      { class: 'node final', id: 'divergence', 'data-diverged': 'false' },
      h('span', { class: 'label' }, 'No divergence'),
      h('div', {}, `The agent takes the recorded steps. ${summary}`),
    );
  }
  return h(
    'div',
    { class: 'node error', id: 'divergence', 'data-diverged': 'true', 'data-step': d.step },
    h('span', { class: 'label' }, `First divergence at step ${d.step} (${d.kind})`),
    h('div', {}, d.message),
    d.expected !== undefined &&
      h('div', {}, h('strong', {}, 'Recorded: '), h('pre', { class: 'expected' }, d.expected)),
    d.actual !== undefined && h('div', {}, h('strong', {}, 'Now: '), h('pre', { class: 'actual' }, d.actual)),
    h('div', { class: 'meta' }, summary),
  );
}
