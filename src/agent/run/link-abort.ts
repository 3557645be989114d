import type { StopReason } from '../guards/index.js';

let never: AbortSignal | undefined;
/** The signal of a run that nothing can abort (made with the first run: Workers allow none at import). */
export function neverSignal(): AbortSignal {
  never ??= new AbortController().signal;
  return never;
}

/** What `linkAbort` gives every run nothing can abort: one object, not one with two closures per run. */
let unabortable: { signal: AbortSignal; reason: () => StopReason | undefined; dispose(): void } | undefined;

export const ABORTED: StopReason = { status: 'aborted', code: 'aborted', message: 'The run was aborted.' };

/**
 * One abort signal for the run: fires when the caller aborts or the time budget runs out, and
 * remembers which, so the run ends `aborted` or `budget_exceeded`.
 */
export function linkAbort(outer: AbortSignal | undefined, maxDurationMs: number | undefined) {
  // Nothing can abort this run: share one signal rather than pay for a controller per run.
  if (!outer && maxDurationMs === undefined) {
    unabortable ??= { signal: neverSignal(), reason: () => undefined, dispose() {} };
    return unabortable;
  }
  const controller = new AbortController();
  let why: StopReason | undefined;
  const onAbort = () => {
    why ??= ABORTED;
    controller.abort(outer?.reason);
  };
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer =
    maxDurationMs === undefined
      ? undefined
      : setTimeout(() => {
          why ??= {
            status: 'budget_exceeded',
            code: 'time_budget',
            message: `The run passed its time budget of ${maxDurationMs} ms.`,
          };
          controller.abort(new Error('time budget'));
        }, maxDurationMs);
  return {
    signal: controller.signal,
    reason: () => why,
    dispose() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}
