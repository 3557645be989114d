/**
 * Run ids as a chunk row leaves them out (`"v":3`, trial-chunks.ts). thinkflow's agent numbers its runs:
 * a run id is a start its process keeps and a counter of 12 lowercase hex digits (core/new-run-id.ts),
 * so the trials of an experiment at concurrency 1 come with run ids counting up by one. A row writes a
 * run id only where it is not the one read after the previous trial's: that id with its counter one
 * higher, or, for an id that ends in no counter, the same id again.
 */
import { issuedRightAfter, LAST_RUN_ID_COUNTER, RUN_ID_COUNTER_DIGITS } from '../../core/index.js';

const DIGITS = RUN_ID_COUNTER_DIGITS;

/** The highest counter 12 hex digits hold: the next after it is not predicted. */
const LAST = LAST_RUN_ID_COUNTER;

/** The counter in `id`'s 12 characters from `from` (lowercase hex), or -1 when they are not one. */
function counterAt(id: string, from: number): number {
  let n = 0;
  for (let i = from; i < from + DIGITS; i++) {
    const c = id.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    n = n * 16 + digit;
  }
  return n;
}

/** The counter `id` ends in, or -1. */
const counterOf = (id: string) => (id.length >= DIGITS ? counterAt(id, id.length - DIGITS) : -1);

/** The run id a row reads after `id` where it leaves one out (`undefined` stays unset). */
export function nextRunId(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const n = counterOf(id);
  if (n < 0 || n >= LAST) return id;
  return id.slice(0, id.length - DIGITS) + (n + 1).toString(16).padStart(DIGITS, '0');
}

/** The character code of hex digit `d` (0..15), lowercase. */
const hexCode = (d: number) => (d < 10 ? 48 + d : 87 + d);

/**
 * Tells, trial after trial, whether a run id is `nextRunId` of the one before (so a row may leave it
 * out) without building that id. Most ids differ from the one before in their last digit alone (15 in
 * 16 counters end in no carry): those are told by that digit and the characters before it, kept from the
 * previous id (one `indexOf`, no digit read); a carry reads the counter. (Finding the start two ids share
 * cost more than writing them: 0.4 to 0.8 µs a trial in the first rows.)
 */
export class RunIdSequence {
  private last: string | undefined;
  /** The last id's characters before its counter, and the counter (-1: it ends in none). */
  private start = '';
  private counter = -1;
  /** The last id but its last character, when its counter ends in a digit below f (else ''). */
  private stem = '';
  /** Whether `start`, `counter` and `stem` describe `last` (set when they are read). */
  private noted = false;

  /** Whether `id` follows the previous id (the previous is `id` from now on). */
  follows(id: string | undefined): boolean {
    const last = this.last;
    this.last = id;
    if (id === undefined || last === undefined) {
      this.noted = false;
      return id === last;
    }
    // The agent's runs one after another (an experiment at concurrency 1): told by the ids' identity,
    // without reading them; the state below is brought up to date when a later id needs it.
    if (issuedRightAfter(last, id)) {
      this.noted = false;
      return true;
    }
    if (!this.noted) this.note(last);
    const counter = this.counter;
    if (counter < 0 || counter >= LAST) {
      if (id === last) return true;
    } else if (id.length === last.length) {
      if (this.stem) {
        // No carry: the id is the last one with its last digit one higher.
        if (id.charCodeAt(id.length - 1) === hexCode((counter + 1) & 15) && id.indexOf(this.stem) === 0) {
          this.counter = counter + 1;
          if (((counter + 1) & 15) === 15) this.stem = '';
          return true;
        }
      } else if (counterAt(id, this.start.length) === counter + 1 && id.indexOf(this.start) === 0) {
        // indexOf, not startsWith: on V8 startsWith costs about twice as much on the agent's run ids.
        this.counter = counter + 1;
        this.stem = id.slice(0, id.length - 1);
        return true;
      }
    }
    this.note(id);
    return false;
  }

  private note(id: string): void {
    this.noted = true;
    this.counter = counterOf(id);
    this.start = this.counter < 0 ? '' : id.slice(0, id.length - DIGITS);
    this.stem =
      this.counter >= 0 && this.counter < LAST && (this.counter & 15) !== 15 ? id.slice(0, id.length - 1) : '';
  }
}
