/**
 * Runs `fn` on a later turn of the event loop, after pending I/O: `setImmediate` where the runtime has
 * it (Node, Bun, Deno), else a zero timer (a browser, a Worker).
 */
export function runSoon(fn: () => void): void {
  const immediate = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate;
  if (immediate) immediate(fn);
  else setTimeout(fn, 0);
}

/** Resolves on a later turn of the event loop (see `runSoon`): lets other requests and I/O go first. */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => runSoon(resolve));
}
