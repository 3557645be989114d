import type { StopReason } from './stop-reason.js';

/** Stops after too many unreadable replies in a row. */
export function invalidStreakGuard(streak: number, max: number, lastReason: string): StopReason | undefined {
  if (streak < max) return undefined;
  return {
    status: 'failed',
    code: 'invalid_output',
    message: `The model gave ${streak} invalid replies in a row; the last: ${lastReason}`,
  };
}
