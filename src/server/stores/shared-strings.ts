import type { AgentEvent, RunResult } from '../../core/index.js';

/**
 * Long strings a run repeats are stored once. The question is in the run's row, in `run_start` and
 * in the first request; a tool's result is in `tool_end`, in `observation`, in the next request and
 * in the result's steps. Each later copy is stored as a reference, `§<seq>.<n>`: the `n`-th long
 * string (in JSON order) of the event stored at `seq`, where seq 0 is the run's input. A stored
 * string that itself starts with `§` gets a second one. Events and results stored this way lose
 * their `runId` (the row's `run_id` says it): its absence marks the format, so rows written before
 * it, which always have one, read as they are.
 */
const MARK = '§';
/** Shorter strings cost less than their reference. */
const MIN_LENGTH = 16;
const REF = /^§(\d+)\.(\d+)$/;

/** Where each long string of a run was first stored: `seq.n`. */
type Dictionary = Map<string, string>;

interface RunStrings {
  lastSeq: number;
  where: Dictionary;
}

/**
 * Encodes a run's events and result as they are committed. The state per run is dropped when the
 * run ends (`forget`) or after a failed commit (`reset`); strings are then stored whole again.
 */
export interface StringSharer {
  /** The run's input, stored in its row (seq 0). Call when the row is created. */
  start(runId: string, input: string): void;
  /** The event as it is stored. Call in `seq` order, after the request compactor. */
  encodeEvent(runId: string, seq: number, event: AgentEvent): unknown;
  /** The result as it is stored: its long strings refer to the run's events. Call after its events. */
  encodeResult(runId: string, result: RunResult): unknown;
  forget(runId: string): void;
  reset(): void;
}

export function createStringSharer(): StringSharer {
  const runs = new Map<string, RunStrings>();
  return {
    start(runId, input) {
      const where: Dictionary = new Map();
      if (input.length >= MIN_LENGTH) where.set(input, '0.0');
      runs.set(runId, { lastSeq: 0, where });
    },
    encodeEvent(runId, seq, event) {
      if (Object.keys(event)[0] !== 'type' || !leadsWithRunId(event, runId, 1)) return event;
      let run = runs.get(runId);
      // A log written again from an earlier seq (a resumed run) must not refer to what it replaces.
      if (!run || seq <= run.lastSeq) {
        run = { lastSeq: 0, where: new Map() };
        runs.set(runId, run);
      }
      run.lastSeq = seq;
      const { runId: _, ...rest } = event;
      const counter = { n: 0 };
      return encodeValue(rest, (text) => {
        const ref = run.where.get(text);
        const here = `${seq}.${counter.n++}`;
        if (ref !== undefined) return `${MARK}${ref}`;
        run.where.set(text, here);
        return escapeMark(text);
      });
    },
    encodeResult(runId, result) {
      const run = runs.get(runId);
      if (!run || !leadsWithRunId(result, runId, 0)) return result;
      const { runId: _, ...rest } = result;
      return encodeValue(rest, (text) => {
        const ref = run.where.get(text);
        return ref === undefined ? escapeMark(text) : `${MARK}${ref}`;
      });
    },
    forget(runId) {
      runs.delete(runId);
    },
    reset() {
      runs.clear();
    },
  };
}

/** True when `runId` is the value's key at `position` (where the store can put it back). */
function leadsWithRunId(value: object, runId: string, position: number): boolean {
  return (value as { runId?: unknown }).runId === runId && Object.keys(value)[position] === 'runId';
}

const escapeMark = (text: string) => (text.startsWith(MARK) ? MARK + text : text);

/** Copies a JSON value, passing each string through `long` (long ones) or `escapeMark` (the rest), keys in order. */
function encodeValue(value: unknown, long: (text: string) => string): unknown {
  if (typeof value === 'string') return value.length >= MIN_LENGTH ? long(value) : escapeMark(value);
  if (Array.isArray(value)) return value.map((item) => encodeValue(item, long));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = encodeValue(item, long);
  return out;
}

/** True when a stored event or result was written with shared strings (it has no `runId`). */
export function hasSharedStrings(stored: unknown): boolean {
  return typeof stored === 'object' && stored !== null && !('runId' in stored);
}

/** The seqs a stored value refers back to (0 for the run's input). */
export function referencedSeqs(stored: unknown, into: Set<number> = new Set()): Set<number> {
  if (typeof stored === 'string') {
    const ref = REF.exec(stored);
    if (ref) into.add(Number(ref[1]));
  } else if (Array.isArray(stored)) for (const item of stored) referencedSeqs(item, into);
  else if (stored !== null && typeof stored === 'object')
    for (const item of Object.values(stored)) referencedSeqs(item, into);
  return into;
}

/**
 * Reads shared strings back. Give it the stored events that references point to before the ones it
 * restores (`seed`; seq 0, the input, through `input`), then restore events in `seq` order: each comes
 * back as it was emitted.
 */
export interface StringRestorer {
  input(text: string): void;
  /**
   * Learns the strings stored whole in one earlier event, without restoring it: a reference always
   * points to where its string was first stored, which is never itself a reference.
   */
  seed(seq: number, stored: unknown): void;
  event<T>(runId: string, seq: number, stored: T): T;
  result(runId: string, stored: unknown): RunResult;
}

export function createStringRestorer(): StringRestorer {
  const strings = new Map<string, string>();
  const restore = (value: unknown, seen: (text: string) => void): unknown => {
    if (typeof value === 'string') {
      let text = value;
      if (value.startsWith(MARK)) {
        if (value.startsWith(MARK + MARK)) text = value.slice(1);
        else text = lookUp(strings, value);
      }
      if (text.length >= MIN_LENGTH) seen(text);
      return text;
    }
    if (Array.isArray(value)) return value.map((item) => restore(item, seen));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = restore(item, seen);
    return out;
  };
  return {
    input(text) {
      if (text.length >= MIN_LENGTH) strings.set('0.0', text);
    },
    seed(seq, stored) {
      if (!hasSharedStrings(stored)) return;
      let n = 0;
      eachString(stored, (value) => {
        // A reference stands for a long string: it takes a place in the count, as restoring it would.
        if (value.startsWith(MARK) && !value.startsWith(MARK + MARK)) {
          n++;
          return;
        }
        const text = value.startsWith(MARK) ? value.slice(1) : value;
        if (text.length >= MIN_LENGTH) strings.set(`${seq}.${n++}`, text);
      });
    },
    event(runId, seq, stored) {
      if (!hasSharedStrings(stored)) return stored;
      let n = 0;
      const { type, ...rest } = restore(stored, (text) => strings.set(`${seq}.${n++}`, text)) as Record<
        string,
        unknown
      >;
      return { type, runId, ...rest } as typeof stored;
    },
    result(runId, stored) {
      if (!hasSharedStrings(stored)) return stored as RunResult;
      return { runId, ...(restore(stored, () => {}) as object) } as RunResult;
    },
  };
}

/** Calls `visit` with each string of a JSON value, in the order `restore` walks them. */
function eachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) eachString(item, visit);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) eachString(item, visit);
}

function lookUp(strings: Map<string, string>, ref: string): string {
  const match = REF.exec(ref);
  const text = match ? strings.get(`${match[1]}.${match[2]}`) : undefined;
  // A log missing the string a later event refers to was damaged outside thinkflow: say so rather than guess.
  if (text === undefined) throw new Error(`The stored string ${ref} that a later event refers to is missing.`);
  return text;
}
