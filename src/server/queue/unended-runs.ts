/**
 * Run ids started by this API server whose job has not been heard to stop. Only a shortcut (a
 * waiter skips its first read of the store), so it is bounded: an end that is never heard (a lost
 * pub/sub message, a reconnect) must not keep its id for the life of the process. Past `max`, the
 * oldest ids go first; a waiter on one of them reads the store first, as for any other run.
 */
export interface UnendedRuns {
  add(runId: string): void;
  /** True when the id was there. */
  delete(runId: string): boolean;
  readonly size: number;
}

export function createUnendedRuns(max = 10_000): UnendedRuns {
  // A Set iterates in insertion order: its first id is the oldest.
  const ids = new Set<string>();
  return {
    add(runId) {
      ids.add(runId);
      if (ids.size > max) ids.delete(ids.values().next().value as string);
    },
    delete: (runId) => ids.delete(runId),
    get size() {
      return ids.size;
    },
  };
}
