import type { StopReason } from './stop-reason.js';

/**
 * Watches for the same observation step after step: at `limit` in a row a warning, one more and the
 * run ends `loop_detected`.
 */
export interface SameObservationTracker {
  check(observation: string): { warning?: string; stop?: StopReason };
}

export function createSameObservationTracker(limit: number): SameObservationTracker {
  let last: string | undefined;
  let count = 0;
  return {
    check(observation) {
      count = observation === last ? count + 1 : 1;
      last = observation;
      if (count === limit) {
        return {
          warning: `This is the same observation ${count} steps in a row. Change your approach or give the final answer.`,
        };
      }
      if (count > limit) {
        return {
          stop: {
            status: 'loop_detected',
            code: 'same_observation',
            message: `The same observation came back ${count} steps in a row.`,
          },
        };
      }
      return {};
    },
  };
}
