import type { AgentEvent, Message } from '../../core/index.js';
import type { StoredEvent } from '../records/index.js';

/** A `model_request` event. */
export type RequestEvent = Extract<AgentEvent, { type: 'model_request' }>;

/**
 * A stored `model_request`'s messages: runs of the previous request's messages (`[start, end)`) and
 * the messages that are new, in order, plus the `seq` of that previous request. Ranges are arrays
 * and messages are objects, so the two cannot be confused.
 */
export interface CompactMessages {
  from: number;
  parts: ([start: number, end: number] | Message)[];
}

/** A stored `model_request`'s tools when they are the same as the previous request's. */
export interface SameTools {
  from: number;
}

/** What the previous request of a run was, for encoding the next one against it. */
interface Previous {
  seq: number;
  /** Each message's JSON, and where each JSON first occurs. */
  keys: string[];
  index: Map<string, number>;
  tools: string | undefined;
}

/**
 * Stores a run's `model_request` events as what changed since the run's previous request: a
 * conversation of N steps is kept once, not N times. The state per run is dropped when the run ends
 * (`forget`) or after a failed commit (`reset`): the next request is then stored whole.
 */
export interface RequestCompactor {
  /** The event as it is stored (other events unchanged). Call in `seq` order, as the events are committed. */
  encode(runId: string, seq: number, event: AgentEvent): AgentEvent;
  forget(runId: string): void;
  reset(): void;
}

export function createRequestCompactor(): RequestCompactor {
  const previous = new Map<string, Previous>();
  return {
    encode(runId, seq, event) {
      if (event.type !== 'model_request') return event;
      const keys = event.messages.map((message) => JSON.stringify(message));
      const index = new Map<string, number>();
      keys.forEach((key, i) => {
        if (!index.has(key)) index.set(key, i);
      });
      const tools = event.tools === undefined ? undefined : JSON.stringify(event.tools);
      const before = previous.get(runId);
      previous.set(runId, { seq, keys, index, tools });
      if (!before || before.seq >= seq) return event;
      const stored: Record<string, unknown> = { ...event, messages: compactMessages(before, keys, event.messages) };
      if (tools !== undefined && tools === before.tools) stored.tools = { from: before.seq } satisfies SameTools;
      return stored as unknown as AgentEvent;
    },
    forget(runId) {
      previous.delete(runId);
    },
    reset() {
      previous.clear();
    },
  };
}

function compactMessages(before: Previous, keys: string[], messages: Message[]): CompactMessages {
  const parts: CompactMessages['parts'] = [];
  let open: [number, number] | undefined;
  for (let i = 0; i < keys.length; i++) {
    // Extend the current run of old messages while they follow on; else start one where this message was.
    if (open && before.keys[open[1]] === keys[i]) {
      open[1] += 1;
      continue;
    }
    const at = before.index.get(keys[i]);
    if (at === undefined) {
      open = undefined;
      parts.push(messages[i]);
      continue;
    }
    open = [at, at + 1];
    parts.push(open);
  }
  return { from: before.seq, parts };
}

const isCompact = (value: unknown): value is CompactMessages =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'parts' in value;
const isSameTools = (value: unknown): value is SameTools =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'from' in value;

/** True when a stored event needs an earlier request to be read back. */
function isCompactRequest(event: AgentEvent): boolean {
  return compactFrom(event) !== undefined;
}

/** The seq of the request a stored compact `model_request` builds on (undefined for any other event). */
export function compactFrom(event: AgentEvent): number | undefined {
  if (event.type !== 'model_request') return undefined;
  if (isCompact(event.messages)) return event.messages.from;
  if (isSameTools(event.tools)) return event.tools.from;
  return undefined;
}

/**
 * Rebuilds stored events as they were emitted: each compact `model_request` gets its full messages
 * and tools back, key order included, so its JSON is byte for byte the one logged. `base` gives the
 * whole request at a seq before these events, called only when a request here builds on one of them.
 * Events stored whole (by older versions too) pass through unchanged.
 */
export async function expandRequests(
  events: StoredEvent[],
  base: (seq: number) => Promise<RequestEvent>,
): Promise<StoredEvent[]> {
  if (!events.some((stored) => isCompactRequest(stored.event))) return events;
  const requests = new Map<number, RequestEvent>();
  const out: StoredEvent[] = [];
  for (const stored of events) {
    const from = compactFrom(stored.event);
    if (from !== undefined && !requests.has(from)) requests.set(from, await base(from));
    out.push(expandOne(stored, requests));
  }
  return out;
}

function expandOne(stored: StoredEvent, requests: Map<number, RequestEvent>): StoredEvent {
  const { event } = stored;
  if (event.type !== 'model_request') return stored;
  let full = event;
  if (isCompact(event.messages) || isSameTools(event.tools)) {
    const rebuilt: Record<string, unknown> = { ...event };
    if (isCompact(event.messages)) rebuilt.messages = rebuildMessages(event.messages, requests);
    if (isSameTools(event.tools)) rebuilt.tools = baseOf(event.tools.from, requests).tools;
    full = rebuilt as unknown as RequestEvent;
  }
  requests.set(stored.seq, full);
  return full === event ? stored : { seq: stored.seq, event: full };
}

function rebuildMessages(compact: CompactMessages, requests: Map<number, RequestEvent>): Message[] {
  const base = baseOf(compact.from, requests).messages;
  const messages: Message[] = [];
  for (const part of compact.parts) {
    if (Array.isArray(part)) for (let i = part[0]; i < part[1]; i++) messages.push(base[i]);
    else messages.push(part);
  }
  return messages;
}

function baseOf(seq: number, requests: Map<number, RequestEvent>): RequestEvent {
  const base = requests.get(seq);
  // A log missing the request another refers to was damaged outside thinkflow: say so rather than guess.
  if (!base) throw new Error(`The stored model_request at seq ${seq} that a later request builds on is missing.`);
  return base;
}
