import { type AgentEvent, mayHoldSecret, redactText } from '../core/index.js';

type DeltaEvent = Extract<AgentEvent, { type: 'model_delta' | 'reasoning_delta' }>;

/** Characters a credential is written with: a run of them at the end of the text may be one still arriving. */
const SECRETISH = /[A-Za-z0-9_\-.~+/=:@%?&#'"\\[\]]/;
/** How much text already stored a credential may have begun in (`Bearer `, `"password":"`). */
const LOOKBACK = 256;
/** A run of such characters longer than this is stored anyway (redacted as far as it goes). */
const MAX_HELD = 4096;
/** A private key block is held until its end line (up to `MAX_HELD_KEY`), since its lines are words. */
const OPEN_KEY_BLOCK = /-----BEGIN [A-Z ]*PRIVATE KEY-----(?![\s\S]*-----END [A-Z ]*PRIVATE KEY-----)/;
const MAX_HELD_KEY = 16_384;

interface Stream {
  step: number;
  /** Text received and not stored yet. */
  held: string;
  /** The end of the text stored so far, as received. */
  tail: string;
}

/**
 * A model streams a credential in pieces (a token or eight characters at a time), and each piece on
 * its own looks like nothing: redacting each `model_delta` alone would store the credential split
 * across events. This holds back, in the stored copy, the end of the text that may still be part
 * of a credential (a run of key characters, an open private key block) and stores it redacted with
 * what came before it once a character that ends it arrives. A delta whose text is all held is
 * stored with empty text; what is still held when the call ends is not stored as deltas, since the
 * `model_response` (and `final`) that follow hold the whole text, redacted. One event in, one out:
 * sequence numbers do not change.
 */
export interface DeltaRedactor {
  /** The event as it is stored. Call with every event of one run, in order. */
  next(event: AgentEvent): AgentEvent;
}

export function createDeltaRedactor(): DeltaRedactor {
  const streams = new Map<string, Stream>();
  return {
    next(event) {
      if (event.type !== 'model_delta' && event.type !== 'reasoning_delta') {
        // Any other event of the run ends its streamed call.
        if (streams.size > 0)
          for (const key of streams.keys()) if (key.startsWith(`${event.runId}\u0000`)) streams.delete(key);
        return event;
      }
      const key = `${event.runId}\u0000${event.type}`;
      let stream = streams.get(key);
      if (!stream || stream.step !== event.step) {
        stream = { step: event.step, held: '', tail: '' };
        streams.set(key, stream);
      }
      return withText(event, release(stream, event.text));
    },
  };
}

/** Adds `text` to what the stream holds and returns what can be stored now, redacted. */
function release(stream: Stream, text: string): string {
  const held = stream.held + text;
  const cut = releasable(stream.tail, held);
  if (cut === 0) {
    stream.held = held;
    return '';
  }
  const ready = held.slice(0, cut);
  stream.held = held.slice(cut);
  const context = stream.tail + ready;
  stream.tail = context.slice(-LOOKBACK);
  if (!mayHoldSecret(context)) return ready;
  // Redacted with the text before it, in case a credential began there (the part already stored stays).
  const before = redactText(context.slice(0, context.length - ready.length));
  const after = redactText(context);
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  return after.slice(same);
}

/** How much of `held` may be stored: up to the last character that ends a run of key characters. */
function releasable(tail: string, held: string): number {
  const recent = tail + held;
  if (recent.includes('-----BEGIN') && OPEN_KEY_BLOCK.test(recent) && held.length < MAX_HELD_KEY) return 0;
  let end = held.length;
  while (end > 0 && SECRETISH.test(held[end - 1])) end--;
  if (held.length - end > MAX_HELD) return held.length;
  return end;
}

function withText(event: DeltaEvent, text: string): DeltaEvent {
  return text === event.text ? event : { ...event, text };
}
