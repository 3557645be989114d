import { type AgentEvent, mayHoldSecret, redactText, SECRET_SHAPES } from '../../core/index.js';

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
  /** The last delta received, to carry what is held when the call ends. */
  last: DeltaEvent;
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
 * stored with empty text; what is still held when the call ends goes out as one more delta, redacted,
 * before the event that ends it: joined, a call's stored deltas are its text, redacted.
 */
export interface DeltaRedactor {
  /** The events to store for `event`, in order: itself, after a last delta when it ends a streamed call. */
  next(event: AgentEvent): AgentEvent[];
}

export function createDeltaRedactor(): DeltaRedactor {
  const streams = new Map<string, Stream>();
  return {
    next(event) {
      const out: AgentEvent[] = [];
      const key = `${event.runId}\u0000${event.type}`;
      const isDelta = event.type === 'model_delta' || event.type === 'reasoning_delta';
      for (const [open, stream] of streams) {
        // Any other event of the run (or a delta of another step) ends a streamed call.
        if (!open.startsWith(`${event.runId}\u0000`)) continue;
        if (isDelta && open === key && stream.step === event.step) continue;
        streams.delete(open);
        const rest = flush(stream);
        if (rest) out.push(withText(stream.last, rest));
      }
      if (!isDelta) {
        out.push(event);
        return out;
      }
      let stream = streams.get(key);
      if (!stream) {
        stream = { step: event.step, last: event, held: '', tail: '' };
        streams.set(key, stream);
      }
      stream.last = event;
      out.push(withText(event, release(stream, event.text)));
      return out;
    },
  };
}

/** What the stream still holds, redacted with its context: the end of the call. */
function flush(stream: Stream): string {
  const rest = stream.held;
  stream.held = '';
  if (!rest) return '';
  const context = stream.tail + rest;
  if (!mayHoldSecret(context)) return rest;
  const before = redactText(stream.tail);
  const after = redactText(context);
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same++;
  return after.slice(same);
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
  // With no credential's name or shape in sight, a run can only become one from a key's fixed start:
  // a word (`The`, `42.`) goes now, `sk` or `Bear` waits for the character after it.
  if (end === held.length || mayHoldSecret(tail + held)) return end;
  const before = end > 0 ? held[end - 1] : tail.slice(-1);
  return end + leadStart(held.slice(end), before);
}

/** A fixed start of a credential shape (`sk-`, `AIza`, `Bearer`), and whether it starts a word. */
interface Lead {
  lead: string;
  anyCase: boolean;
  word: boolean;
}

/**
 * The fixed starts of `SECRET_SHAPES`: each pattern's literal text up to its first open-ended part
 * (`(?:AKIA|ASIA)` and `[rs]` give one lead each). A shape named by the text before it (`password=`,
 * `?key=`) has none: `mayHoldSecret` sees its name.
 */
const LEADS: Lead[] = SECRET_SHAPES.flatMap((shape) => {
  const word = shape.pattern.startsWith(String.raw`\b`);
  return leadsOf(word ? shape.pattern.slice(2) : shape.pattern).map((lead) => ({
    lead: shape.anyCase ? lead.toLowerCase() : lead,
    anyCase: shape.anyCase === true,
    word,
  }));
});
const LONGEST_LEAD = Math.max(...LEADS.map((l) => l.lead.length));

function leadsOf(pattern: string): string[] {
  if (pattern.startsWith('(?<=')) return [];
  let leads = [''];
  let rest = pattern;
  for (;;) {
    const quantified = (length: number) => /^[{*+?]/.test(rest.slice(length));
    const options = /^\(\?:([\w|-]+)\)/.exec(rest) ?? /^\[(\w+)\]/.exec(rest);
    if (options && !quantified(options[0].length)) {
      const choices = options[0].startsWith('(') ? options[1].split('|') : [...options[1]];
      leads = leads.flatMap((lead) => choices.map((choice) => lead + choice));
      rest = rest.slice(options[0].length);
    } else if (/^[\w -]/.test(rest) && !quantified(1)) {
      leads = leads.map((lead) => lead + rest[0]);
      rest = rest.slice(1);
    } else return leads.filter((lead) => lead !== '');
  }
}

/** Where in `run` (after `before`) a credential's fixed start may begin; `run.length` when nowhere. */
function leadStart(run: string, before: string): number {
  for (let i = 0; i < run.length; i++) {
    const startsWord = /\w/.test(run[i]) && !/\w/.test(i === 0 ? before : run[i - 1]);
    const text = run.slice(i, i + LONGEST_LEAD);
    for (const { lead, anyCase, word } of LEADS) {
      if (word && !startsWord) continue;
      const cased = anyCase ? text.toLowerCase() : text;
      if (lead.startsWith(cased) || cased.startsWith(lead)) return i;
    }
  }
  return run.length;
}

function withText(event: DeltaEvent, text: string): DeltaEvent {
  return text === event.text ? event : { ...event, text };
}
