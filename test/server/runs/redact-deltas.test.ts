import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/index.js';
import { createAnswerReader } from '../../../src/protocols/index.js';
import { createDeltaRedactor } from '../../../src/server/runs/redact-deltas.js';

/** Streams `text` in pieces of `size` through a redactor, then ends the call: the delta texts stored. */
function stored(text: string, size: number): string[] {
  const redactor = createDeltaRedactor();
  const out: string[] = [];
  const keep = (events: AgentEvent[]) => {
    for (const kept of events) if (kept.type === 'model_delta') out.push(kept.text);
  };
  for (let i = 0; i < text.length; i += size) {
    keep(redactor.next({ type: 'model_delta', runId: 'r', ts: 0, step: 1, text: text.slice(i, i + size) }));
  }
  const end: AgentEvent = { type: 'model_response', runId: 'r', ts: 0, step: 1, text, ms: 0 };
  const ending = redactor.next(end);
  expect(ending.at(-1)).toBe(end);
  keep(ending);
  return out;
}

const KEY = 'sk-proj-Ab12Cd34Ef56Gh78Ij90KlMn';

describe('stored deltas', () => {
  it('never hold a credential the model streams in pieces, whatever the piece size', () => {
    const text = `Use ${KEY} with Authorization: Bearer abcdefgh12345678 and {"password":"hunter2 horse"}, then AKIAIOSFODNN7EXAMPLE. Done`;
    for (const size of [1, 3, 4, 8, 13]) {
      const pieces = stored(text, size);
      const joined = pieces.join('');
      expect(pieces.length - Math.ceil(text.length / size)).toBeLessThanOrEqual(1);
      for (const secret of [KEY, 'abcdefgh12345678', 'hunter2', 'AKIAIOSFODNN7EXAMPLE']) {
        expect(joined, `${size}: ${joined}`).not.toContain(secret);
        // Not in any piece, nor across two.
        for (let i = 1; i < pieces.length; i++) expect(pieces[i - 1] + pieces[i]).not.toContain(secret.slice(0, 8));
      }
      expect(joined).toContain('Use [redacted] with');
      expect(joined).toContain('{"password":"[redacted]"}');
      expect(joined.endsWith('. Done')).toBe(true);
    }
  });

  it('pass text without credentials through as it comes', () => {
    // No word here can begin a key (`sk-`, `AIza`, `Bearer`...): each piece goes out as it is.
    expect(stored('Hello there, friend', 4)).toEqual(['Hell', 'o th', 'ere,', ' fri', 'end']);
    // A word that may begin one waits for the character after it; the last goes with the call's end.
    expect(stored('Ask Bear it', 4)).toEqual(['Ask ', '', 'Bear it']);
    expect(stored('Ask sk', 4)).toEqual(['Ask ', '', 'sk']);
    // Chinese text has no key characters: every piece goes out at once.
    expect(stored('北京今天晴，气温二十度。', 2)).toEqual(['北京', '今天', '晴，', '气温', '二十', '度。']);
  });

  it('hold a private key block until its end line', () => {
    const block =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\nok.';
    const joined = stored(block, 5).join('');
    expect(joined).not.toContain('MIIBOgIBAAJBAK');
    expect(joined).toContain('[redacted]');
  });
});

describe('the live answer read from stored deltas', () => {
  it('redacts a credential split across deltas and holds back only its tail, not the answer', () => {
    const redactor = createDeltaRedactor();
    const reader = createAnswerReader();
    const at = { runId: 'r', ts: 0, step: 1 };
    const deltas = ['Your key is sk-proj-Ab12', 'Cd34Ef56Gh78 and ', 'it works. ', 'Done.'];
    const events: AgentEvent[] = [
      { ...at, type: 'run_start', input: 'q', model: 'm', protocol: 'native', tools: [] },
      { ...at, type: 'model_request', model: 'm', messages: [] },
      ...deltas.map((text): AgentEvent => ({ ...at, type: 'model_delta', text })),
      { ...at, type: 'model_response', text: deltas.join(''), ms: 0 },
    ];
    // What a client gets as each model event is stored.
    const sent = events.map((event) =>
      redactor
        .next(event)
        .flatMap((stored) => reader.read(stored))
        .map((piece) => piece.text)
        .join(''),
    );
    // Just after a key, a word may still be part of the next one: `Done.` waits for the call's end.
    expect(sent.slice(2)).toEqual(['Your key is', ' [redacted] and', ' it works.', '', ' Done.']);
  });
});
