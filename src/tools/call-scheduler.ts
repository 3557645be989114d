/** Hands out run slots: up to `limit` shared slots at once, or one exclusive slot alone. */
export interface CallScheduler {
  /** Resolves with a release function once the call may run. Strictly first come, first served. */
  acquire(exclusive: boolean): Promise<() => void>;
  /** The release function when the call may run now (no waiting), else undefined. */
  tryAcquire(exclusive: boolean): (() => void) | undefined;
}

interface Waiter {
  exclusive: boolean;
  grant: (release: () => void) => void;
}

/**
 * A FIFO scheduler for tool calls: normal calls share `limit` slots; an exclusive (`sequential`)
 * call waits until nothing runs and blocks everything behind it until it ends. Nothing overtakes
 * a waiting exclusive call, so it is never starved.
 */
export function createCallScheduler(limit: number): CallScheduler {
  const cap = Math.max(1, Math.floor(limit));
  let running = 0;
  let exclusiveRunning = false;
  const queue: Waiter[] = [];

  const canRun = (exclusive: boolean) => (exclusive ? running === 0 : running < cap && !exclusiveRunning);

  const start = (exclusive: boolean): (() => void) => {
    running++;
    if (exclusive) exclusiveRunning = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      if (exclusive) exclusiveRunning = false;
      pump();
    };
  };

  const pump = () => {
    while (queue.length > 0 && canRun(queue[0].exclusive)) {
      const waiter = queue.shift()!;
      waiter.grant(start(waiter.exclusive));
    }
  };

  const tryAcquire = (exclusive: boolean) => (queue.length === 0 && canRun(exclusive) ? start(exclusive) : undefined);

  return {
    tryAcquire,
    acquire(exclusive) {
      const release = tryAcquire(exclusive);
      if (release) return Promise.resolve(release);
      return new Promise((grant) => queue.push({ exclusive, grant }));
    },
  };
}
