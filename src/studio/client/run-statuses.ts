/**
 * The server's run statuses (`ServerRunStatus`), unfinished first. Written out rather than imported: the
 * page bundles no server code (and no zod). A test checks both lists against the server's.
 */
export const UNFINISHED: readonly string[] = ['queued', 'running', 'waiting'];
export const STATUSES: readonly string[] = [
  ...UNFINISHED,
  'done',
  'failed',
  'aborted',
  'max_steps',
  'loop_detected',
  'budget_exceeded',
];
