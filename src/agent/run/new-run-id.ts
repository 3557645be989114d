/**
 * This process's random part: 80 bits that keep ids of different processes apart. Drawn with the first
 * id, not at import: Workers allow no random values in global scope.
 */
let prefix: string | undefined;
let counter = 0;

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
  return prefix + ZEROS.slice(hex.length) + hex;
}

const ZEROS = '000000000000';
