/**
 * This process's random part: 80 bits that keep ids of different processes apart. Drawn with the first
 * id, not at import: Workers allow no random values in global scope.
 */
let prefix: string | undefined;
let counter = 0;
/** The last id issued, and the one issued just before it (undefined once the counter passes 12 hex digits). */
let latest: string | undefined;
let beforeLatest: string | undefined;

/**
 * How many hex digits an id's counter is written in (`run-id-sequence.ts` predicts the next id from them),
 * and the highest counter they hold: the ids after it are longer.
 */
export const RUN_ID_COUNTER_DIGITS = 12;
export const LAST_RUN_ID_COUNTER = 16 ** RUN_ID_COUNTER_DIGITS - 1;

/**
 * An id for a run: UUID-shaped, unique in this process (a counter) and, with a random prefix drawn once
 * per process, apart from other processes' ids. A fresh `crypto.randomUUID()` per run costs more than a
 * step of the loop. Not a secret: the server gives its runs ids of its own.
 */
export function newRunId(): string {
  counter += 1;
  prefix ??= crypto.randomUUID().slice(0, 24);
  const hex = counter.toString(16);
  // A slice of zeros, not `padStart`: half the cost (about 45 ns a run on Node 20).
  const id = prefix + ZEROS.slice(hex.length) + hex;
  beforeLatest = counter <= LAST_RUN_ID_COUNTER ? latest : undefined;
  latest = id;
  return id;
}

const ZEROS = '0'.repeat(RUN_ID_COUNTER_DIGITS);

/**
 * Whether `id` is the run id `newRunId` issued right after `previous`, told by the two ids' identity
 * with the last two it issued (it is then `previous` with its 12-digit counter one higher). An id the
 * agent built is a string V8 keeps in pieces: reading its characters joins them into a new string first,
 * which cost an experiment's store more than the rest of a trial's row. False says nothing: read the ids.
 */
export function issuedRightAfter(previous: string, id: string): boolean {
  return id === latest && previous === beforeLatest;
}
