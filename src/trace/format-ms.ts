/** A duration for people: `0.5 ms`, `18 ms`, `2.5 s`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 10 && !Number.isInteger(ms)) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}
