import { type Child, h, mount } from './dom.js';
import { renderRunHead, renderStep } from './render-tree.js';
import type { RunNode } from './run-tree.js';

/** A run's steps in a scrolling box that builds only the steps in view (a run may have thousands). */
export interface StepList {
  /** The scrolling box (`id="tree"`). */
  readonly el: HTMLElement;
  /** Draws `run` again after it changed; only the steps in and near the view are built. */
  show(run: RunNode | undefined): void;
  /** Scrolls the root run's step `step` into view and marks it (the first divergence of a replay). */
  reveal(step: number): void;
}

export interface StepListOptions {
  /** Adds the model requests and responses (collapsed). */
  raw?: boolean;
  /** Shown above the steps. */
  title?: string;
  /** Shown while there is no run. */
  empty: string;
  /** Extra classes of the box (the chat puts it in a panel). */
  className?: string;
  /** Keep the newest step in view while the run grows, unless the person scrolled up. */
  follow?: boolean;
}

/** Height assumed for a step not measured yet, in pixels. */
const ESTIMATED_ROW = 120;
/** Steps built beyond each edge of the view, so a quick scroll does not show a blank. */
const OVERSCAN = 10;

/**
 * A virtual list of the root run's steps with measured row heights: rows in the window are built,
 * and padding above and below stands in for the rest, so the scrollbar and scroll position behave as
 * if every step were there. A row's height is measured each time it is built (a live step grows),
 * and steps not built yet are assumed to be as tall as the average measured so far. Nested agents
 * stay inside their caller's row. Expanded `<details>` are remembered by key across redraws.
 */
export function stepList(options: StepListOptions): StepList {
  const head = h('div', { class: 'run-head' });
  const body = h('div', { class: 'vlist-body' });
  const el = h(
    'div',
    { class: `tree vlist ${options.className ?? ''}`.trim(), id: 'tree' },
    options.title && h('h2', {}, options.title),
    head,
    body,
  );
  const open = new Set<string>();
  // `toggle` does not bubble; a capturing listener on the box still sees every one.
  el.addEventListener(
    'toggle',
    (event) => {
      const details = event.target as HTMLDetailsElement;
      const key = details.dataset.key;
      if (!key) return;
      if (details.open) open.add(key);
      else open.delete(key);
      schedule(); // the row changed height
    },
    true,
  );
  let run: RunNode | undefined;
  let marked: number | undefined;
  const heights: number[] = [];
  let measured = { count: 0, total: 0 };
  let queued = false;

  const heightOf = (index: number) =>
    heights[index] ?? (measured.count ? measured.total / measured.count : ESTIMATED_ROW);

  function layout(): void {
    const steps = run?.steps ?? [];
    if (!run) {
      mount(head);
      mount(body, h('p', { class: 'meta' }, options.empty));
      body.style.paddingTop = body.style.paddingBottom = '';
      return;
    }
    mount(head, ...renderRunHead(run));
    const top = el.scrollTop - body.offsetTop;
    const view = el.clientHeight || window.innerHeight;
    let first = 0;
    let y = 0;
    while (first < steps.length && y + heightOf(first) < top) y += heightOf(first++);
    let last = first;
    while (last < steps.length && y < top + view) y += heightOf(last++);
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(steps.length, last + OVERSCAN);
    let above = 0;
    for (let i = 0; i < from; i++) above += heightOf(i);
    let below = 0;
    for (let i = to; i < steps.length; i++) below += heightOf(i);
    const rows: Child[] = [];
    for (let i = from; i < to; i++) {
      const row = renderStep(run, steps[i], { raw: options.raw, open });
      rows.push(h('div', { class: steps[i].step === marked ? 'vrow marked' : 'vrow', 'data-index': i }, row));
    }
    mount(body, rows);
    body.style.paddingTop = `${above}px`;
    body.style.paddingBottom = `${below}px`;
    let changed = false;
    for (const row of Array.from(body.children)) {
      const index = Number((row as HTMLElement).dataset.index);
      const height = (row as HTMLElement).offsetHeight;
      if (heights[index] === height) continue;
      if (heights[index] === undefined) measured = { count: measured.count + 1, total: measured.total + height };
      else measured = { ...measured, total: measured.total + height - heights[index] };
      heights[index] = height;
      changed = true;
    }
    // New heights move the rows below them: lay out once more with the real sizes (it settles,
    // as an unchanged row measures the same).
    if (changed) schedule();
  }

  function schedule(): void {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      layout();
    });
  }

  el.addEventListener('scroll', schedule, { passive: true });

  return {
    el,
    show(next) {
      const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
      if (next !== run) heights.length = 0;
      if (next !== run) measured = { count: 0, total: 0 };
      run = next;
      layout();
      if (options.follow && atBottom) el.scrollTop = el.scrollHeight;
    },
    reveal(step) {
      const index = run?.steps.findIndex((s) => s.step === step) ?? -1;
      if (index < 0) return;
      marked = step;
      let y = 0;
      for (let i = 0; i < index; i++) y += heightOf(i);
      el.scrollTop = body.offsetTop + y;
      layout();
    },
  };
}
