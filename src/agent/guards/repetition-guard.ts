import type { StopReason } from './stop-reason.js';

/**
 * Tracks tool calls by name and canonical arguments. The second identical call gets a warning;
 * the third ends the run `loop_detected`.
 */
export interface RepetitionTracker {
  /** Records a call and says what to do about it. */
  check(tool: string, input: unknown): { warning?: string; stop?: StopReason };
}

export function createRepetitionTracker(): RepetitionTracker {
  // How often each call was seen, by the hash of its tool's name (any case) and its canonical JSON: one
  // table for every tool, and no string built for an object input (the loop checks every call). A run's
  // first calls are few: a scan of two arrays finds them in a third of the time a Map takes (its keys
  // are boxed numbers, and it grows as it fills); past `SCANNED` distinct calls they move to a Map.
  let hashes: number[] = [];
  let counts: number[] = [];
  let table: Map<number, number> | undefined;
  const counted = (key: number): number => {
    if (table) {
      const count = (table.get(key) ?? 0) + 1;
      table.set(key, count);
      return count;
    }
    const at = hashes.indexOf(key);
    if (at >= 0) return ++counts[at];
    hashes.push(key);
    counts.push(1);
    if (hashes.length > SCANNED) {
      table = new Map(hashes.map((hash, i) => [hash, counts[i]]));
      hashes = [];
      counts = [];
    }
    return 1;
  };
  return {
    check(tool, input) {
      const count = counted(callHash(tool, input));
      if (count === 2) {
        return {
          warning: `You already called ${tool} with these exact arguments. Do not repeat it: use the earlier result, try different arguments, or give the final answer.`,
        };
      }
      if (count >= 3) {
        return {
          stop: {
            status: 'loop_detected',
            code: 'repeated_call',
            message: `The model called ${tool} with the same arguments ${count} times.`,
          },
        };
      }
      return FIRST_TIME;
    },
  };
}

/** Distinct calls a tracker scans before it keeps them in a Map. */
const SCANNED = 32;

/** A call's first time: nothing to say (one shared answer, not a new object per call). */
const FIRST_TIME: { warning?: string; stop?: StopReason } = Object.freeze({});

/** JSON with sorted keys and trimmed strings, so `{b:1,a:" x"}` and `{a:"x",b:1}` compare equal. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    const first = trimmed.charCodeAt(0);
    if (first === 123 /* { */ || first === 91 /* [ */) {
      try {
        return JSON.stringify(canonical(JSON.parse(trimmed)));
      } catch {
        return JSON.stringify(trimmed);
      }
    }
    return JSON.stringify(trimmed);
  }
  return JSON.stringify(canonical(value)) ?? 'null';
}

/**
 * The value with object keys sorted and strings trimmed (arrays keep their order). A value that is
 * already canonical comes back as it is, so the common case allocates nothing.
 */
function canonical(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = canonical(value[i]);
      if (item !== value[i]) {
        copy ??= value.slice();
        copy[i] = item;
      }
    }
    return copy ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let same = true;
  for (let i = 0; same && i < keys.length; i++) {
    const item = source[keys[i]];
    same = (i === 0 || keys[i - 1] < keys[i]) && item !== undefined && canonical(item) === item;
  }
  if (same) return source;
  const sorted: Record<string, unknown> = Object.create(null); // so a "__proto__" key stays a key
  for (const key of keys.sort()) if (source[key] !== undefined) sorted[key] = canonical(source[key]);
  return sorted;
}

/**
 * A 53-bit hash of `canonicalJson(value)`, walked from the value without building the string: two
 * inputs hash alike when their canonical JSON is the same (sorted keys, trimmed strings, `undefined`
 * fields left out), and differently but for a 1 in 2^53 chance.
 */
export function canonicalHash(value: unknown): number {
  begin();
  return hashed(value);
}

/** `canonicalHash` of a call: its tool's name, case ignored, then its input. */
function callHash(tool: string, input: unknown): number {
  begin();
  feedString(tool.toLowerCase());
  return hashed(input);
}

/**
 * Starts a hash. The two halves live in module state while one hash is worked out (synchronous, never
 * re-entered): no state object per call (docs/loop.md).
 */
function begin(): void {
  ha = 0x811c9dc5;
  hb = 0x9747b28c;
}

/** Feeds `value`'s canonical JSON into the hash begun, and reads the hash. */
function hashed(value: unknown): number {
  const json = typeof value === 'string' ? parsedJson(value) : value;
  if (typeof json === 'string' || !isWalkable(json)) feedString(canonicalJson(json));
  else feedValue(json);
  return (ha >>> 0) * 0x200000 + (hb >>> 11);
}

/** A string input that holds a JSON object or array, parsed (as `canonicalJson` reads it); else the string. */
function parsedJson(text: string): unknown {
  const trimmed = text.trim();
  const first = trimmed.charCodeAt(0);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

let ha = 0;
let hb = 0;

function feed(n: number): void {
  ha = Math.imul(ha ^ n, 0x01000193);
  hb = Math.imul(hb ^ n, 0x5bd1e995) ^ (hb >>> 15);
}

function feedString(text: string): void {
  feed(text.length | 0x40000000);
  for (let i = 0; i < text.length; i++) feed(text.charCodeAt(i));
}

/** Plain values, arrays and objects without `toJSON` (a date, say, goes through `canonicalJson`). */
function isWalkable(value: unknown): boolean {
  return typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

const TAG = { null: 1, false: 2, true: 3, number: 4, string: 5, array: 6, object: 7, key: 8, other: 9 };

function feedValue(value: unknown): void {
  switch (typeof value) {
    case 'string':
      feed(TAG.string);
      feedString(value.trim());
      return;
    case 'number':
      // JSON writes NaN and Infinity as null.
      if (!Number.isFinite(value)) feed(TAG.null);
      else if (Number.isInteger(value) && Math.abs(value) < 2 ** 31) {
        feed(TAG.number);
        feed(value | 0);
      } else {
        feed(TAG.number);
        feedString(JSON.stringify(value));
      }
      return;
    case 'boolean':
      feed(value ? TAG.true : TAG.false);
      return;
    case 'object':
      break;
    default:
      // undefined and functions read as null in arrays (left out of objects by the caller); bigints do not serialize.
      feed(typeof value === 'bigint' ? TAG.other : TAG.null);
      return;
  }
  if (value === null) feed(TAG.null);
  else if (!isWalkable(value)) feedString(canonicalJson(value));
  else if (Array.isArray(value)) feedArray(value);
  else feedObject(value as Record<string, unknown>);
}

function feedArray(value: unknown[]): void {
  feed(TAG.array);
  feed(value.length);
  for (const item of value) feedValue(item);
}

function feedObject(record: Record<string, unknown>): void {
  let keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] >= keys[i]) {
      keys = keys.slice().sort();
      break;
    }
  }
  feed(TAG.object);
  for (const key of keys) {
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    feed(TAG.key);
    feedString(key);
    feedValue(item);
  }
}
