import type { EvalProgress } from './run-suite.js';

/** One progress-bar line: `[#####·····] 5/10 · 4 passed · last: add ✓`. */
export function formatProgress(progress: EvalProgress, width = 24): string {
  const filled = progress.total ? Math.round((progress.done / progress.total) * width) : width;
  const bar = `${'#'.repeat(filled)}${'·'.repeat(width - filled)}`;
  return `[${bar}] ${progress.done}/${progress.total} · ${progress.passed} passed · last: ${progress.caseId} ${progress.pass ? '✓' : '✗'}`;
}
