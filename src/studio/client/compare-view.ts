import type { Comparison, Estimate } from '../../eval/index.js';
import { type Child, h } from './dom.js';

const fixed3 = (n: number) => (Math.round(n * 1000) / 1000).toFixed(3);
const signed = (n: number) => `${n > 0 ? '+' : ''}${fixed3(n)}`;
const interval = (e: Estimate) => `[${fixed3(e.low)}, ${fixed3(e.high)}]`;

/** True when a JSON value is the output of `compareExperiments` (`thinkflow eval compare a b --json`). */
export function isComparison(value: unknown): value is Comparison {
  const c = value as Partial<Comparison> | null;
  return !!c && Array.isArray(c.scorers) && Array.isArray(c.fixed) && Array.isArray(c.broken) && !!c.a && !!c.b;
}

/**
 * Two experiments side by side, as `compareExperiments` found them: per scorer A's and B's means with
 * their intervals and the delta B − A with its paired interval and verdict; the pass rate; the cases
 * B fixed and broke; and the verdict with its reasons.
 */
export function renderComparison(c: Comparison): Child[] {
  const cases = (title: string, id: string, list: string[]) =>
    h(
      'div',
      { id, class: 'cases' },
      h('h3', {}, `${title} (${list.length})`),
      list.length > 0
        ? h(
            'ul',
            {},
            list.map((caseId) => h('li', {}, caseId)),
          )
        : h('p', { class: 'meta' }, 'None.'),
    );
  return [
    h('h2', {}, `${c.a.name} → ${c.b.name}`),
    h(
      'p',
      { id: 'compare-verdict', class: `verdict ${c.verdict}` },
      h('span', { class: `status ${c.verdict === 'regression' ? 'failed' : 'done'}` }, c.verdict),
      ` · ${c.sharedCases} shared cases`,
      c.onlyInA.length > 0 && ` · ${c.onlyInA.length} only in A`,
      c.onlyInB.length > 0 && ` · ${c.onlyInB.length} only in B`,
    ),
    c.reasons.length > 0 &&
      h(
        'ul',
        { class: 'reasons' },
        c.reasons.map((r) => h('li', {}, r)),
      ),
    h(
      'table',
      { id: 'compare-scorers' },
      h(
        'tr',
        {},
        ['Scorer', `A: ${c.a.name}`, `B: ${c.b.name}`, 'Δ B − A (95%)', 'Sign test p', 'Verdict'].map((t) =>
          h('th', {}, t),
        ),
      ),
      c.scorers.map((s) =>
        h(
          'tr',
          { class: `scorer ${s.verdict}`, 'data-scorer': s.name },
          h('td', {}, s.name),
          h('td', {}, fixed3(s.a.mean), h('div', { class: 'meta' }, interval(s.a))),
          h('td', {}, fixed3(s.b.mean), h('div', { class: 'meta' }, interval(s.b))),
          h('td', { class: 'delta' }, signed(s.delta.mean), h('div', { class: 'meta' }, interval(s.delta))),
          h('td', {}, s.signTest.pValue.toFixed(3)),
          h('td', {}, h('span', { class: `status ${s.verdict === 'regressed' ? 'failed' : 'done'}` }, s.verdict)),
        ),
      ),
      h(
        'tr',
        { class: 'scorer pass-rate' },
        h('td', {}, 'pass rate'),
        h('td', {}, fixed3(c.passRate.a)),
        h('td', {}, fixed3(c.passRate.b)),
        h(
          'td',
          { class: 'delta' },
          signed(c.passRate.delta.mean),
          h('div', { class: 'meta' }, interval(c.passRate.delta)),
        ),
        h('td', {}),
        h('td', {}),
      ),
    ),
    h('div', { class: 'row' }, cases('Fixed', 'compare-fixed', c.fixed), cases('Broken', 'compare-broken', c.broken)),
  ];
}
