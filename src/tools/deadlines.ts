/** A pending timeout; `cancel` is cheap and safe to call more than once. */
export interface Deadline {
  cancel(): void;
}

/** One pending deadline: its own handle, so starting one allocates a single object. */
class Entry implements Deadline {
  constructor(
    readonly at: number,
    readonly fire: () => void,
    readonly lane: Lane,
  ) {}

  cancel(): void {
    // An idle lane keeps its timer, unreferenced so the process may exit: the next call reuses it.
    if (this.lane.entries.delete(this) && this.lane.entries.size === 0) this.lane.timer?.unref();
  }
}

interface Lane {
  /** In insertion order, which is deadline order: every entry of a lane has the same duration. */
  entries: Set<Entry>;
  timer?: NodeJS.Timeout;
}

const lanes = new Map<number, Lane>();

/**
 * Calls `fire` after `ms` unless cancelled first. Tool calls of one duration share one timer: calls
 * with the same timeout end in the order they started, so each duration keeps its entries in a Set
 * (insertion order) and one timer for the oldest. Starting and cancelling a deadline is a Set insert
 * and delete, where a timer per call costs a Timeout object and a timer-list insert and removal.
 * The lane's timer keeps the process alive while any of its deadlines is pending, as a timer per
 * call would, and not once they are all cancelled.
 */
export function deadline(ms: number, fire: () => void): Deadline {
  let lane = lanes.get(ms);
  if (!lane) {
    lane = { entries: new Set() };
    lanes.set(ms, lane);
  }
  if (lane.entries.size === 0) lane.timer?.ref();
  const entry = new Entry(performance.now() + ms, fire, lane);
  lane.entries.add(entry);
  const owner = lane;
  owner.timer ??= setTimeout(() => expire(ms, owner), ms);
  return entry;
}

/** Fires the lane's due entries, then sets its timer for the next one (if any). */
function expire(ms: number, lane: Lane): void {
  lane.timer = undefined;
  const now = performance.now();
  for (const entry of lane.entries) {
    if (entry.at > now) break;
    lane.entries.delete(entry);
    try {
      entry.fire();
    } catch (error) {
      // Reported as an uncaught error would be, without leaving the lane's later deadlines unwatched.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
  // A fired entry may have started a deadline of this duration, which set the timer.
  if (lane.timer) return;
  const next = lane.entries.values().next();
  if (next.done) {
    lanes.delete(ms);
    return;
  }
  lane.timer = setTimeout(() => expire(ms, lane), Math.max(1, Math.ceil(next.value.at - now)));
}
