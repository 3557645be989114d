import { api } from './api.js';
import { h, mount } from './dom.js';

/** One score of GET /v1/runs/:id/scores. */
interface RunScore {
  name: string;
  score: number;
  pass: boolean;
  reason?: string;
  error?: string;
}

/** A dataset of GET /v1/datasets. */
interface DatasetInfo {
  id: string;
  name: string;
  version: number;
  rows: number;
}

const NEW = '';

/**
 * A run's online scores (`GET /v1/runs/:id/scores`): one row per scorer, its score, pass or fail, and why
 * (a scorer that failed shows its error). Nothing while the run has none (not sampled, not scored yet).
 */
export function runScores(id: string): HTMLElement {
  const el = h('div', { id: 'run-scores' });
  void api<{ scores: RunScore[] }>(`/v1/runs/${encodeURIComponent(id)}/scores`)
    .then(({ scores }) => {
      if (scores.length === 0) return;
      mount(
        el,
        h('h3', {}, 'Scores'),
        h(
          'table',
          { class: 'scores' },
          h(
            'tr',
            {},
            ['Scorer', 'Score', 'Result', 'Why'].map((t) => h('th', {}, t)),
          ),
          scores.map((s) =>
            h(
              'tr',
              { class: `score ${s.pass ? 'pass' : 'fail'}`, 'data-scorer': s.name },
              h('td', {}, s.name),
              h('td', { class: 'score' }, s.score.toFixed(2)),
              h(
                'td',
                {},
                h(
                  'span',
                  { class: `status ${s.pass ? 'done' : 'failed'}` },
                  s.error ? 'error' : s.pass ? 'pass' : 'fail',
                ),
              ),
              h('td', { class: s.error ? 'error-text' : 'meta' }, s.error ?? s.reason ?? ''),
            ),
          ),
        ),
      );
    })
    // A server without online scoring has no such route: the run page goes without.
    .catch(() => {});
  return el;
}

/**
 * "Add to dataset" on a finished run: into one of the caller's datasets, or a new one by name
 * (`POST /v1/runs/:id/add-to-dataset`), saying which version the row made.
 */
export function addToDataset(id: string): HTMLElement {
  const select = h('select', { name: 'dataset' }, h('option', { value: NEW }, 'New dataset…')) as HTMLSelectElement;
  const name = h('input', { name: 'dataset-name', placeholder: 'Dataset name' }) as HTMLInputElement;
  const note = h('span', { class: 'meta', id: 'dataset-note' });
  select.onchange = () => {
    name.hidden = select.value !== NEW;
  };
  void api<{ data: DatasetInfo[] }>('/v1/datasets')
    .then(({ data }) => {
      for (const d of data) select.append(h('option', { value: d.id }, `${d.name} (v${d.version})`));
    })
    .catch(() => {});
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = select.value === NEW ? { name: name.value.trim() } : { datasetId: select.value };
    try {
      const added = await api<DatasetInfo>(`/v1/runs/${encodeURIComponent(id)}/add-to-dataset`, {
        method: 'POST',
        body,
      });
      mount(note, `Added to ${added.name}: version ${added.version}, ${added.rows} rows.`);
      note.className = 'meta';
    } catch (error) {
      mount(note, (error as Error).message);
      note.className = 'error-text';
    }
  };
  return h(
    'form',
    { class: 'row', id: 'add-to-dataset', onsubmit: submit },
    select,
    name,
    h('button', { class: 'btn secondary', type: 'submit' }, 'Add to dataset'),
    note,
  );
}
