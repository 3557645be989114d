/** Wakes whoever waits on a key (a run id) when it changes. In-process only. */
export interface ChangeSignal {
  notify(key: string): void;
  /** Resolves at the next `notify(key)` or after `timeoutMs`. */
  wait(key: string, timeoutMs: number): Promise<void>;
}

export function createChangeSignal(): ChangeSignal {
  const waiters = new Map<string, Set<() => void>>();
  return {
    notify(key) {
      const set = waiters.get(key);
      if (!set) return;
      waiters.delete(key);
      for (const wake of set) wake();
    },
    wait(key, timeoutMs) {
      return new Promise((resolve) => {
        let set = waiters.get(key);
        if (!set) {
          set = new Set();
          waiters.set(key, set);
        }
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          // An empty set must go too: the map is keyed by run id, and ids never come back.
          if (set.delete(wake) && set.size === 0 && waiters.get(key) === set) waiters.delete(key);
          resolve();
        }, timeoutMs);
        set.add(wake);
      });
    },
  };
}
