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
          waiters.get(key)?.delete(wake);
          resolve();
        }, timeoutMs);
        set.add(wake);
      });
    },
  };
}
