import { describe, expect, it } from 'vitest';
import { packEvents, unpackEvents } from '../../../src/server/stores/event-block-codec.js';

describe('packed event blocks', () => {
  it('read back as the JSON packed, and text blocks (stored before packing) as they are', () => {
    const events = [{ type: 'model_delta', ts: 1796138754275, step: 3, text: 'Hel§lo \u0000 ✓' }];
    expect(unpackEvents(packEvents(events))).toBe(JSON.stringify(events));
    expect(unpackEvents('[{"type":"step_start"}]')).toBe('[{"type":"step_start"}]');
  });

  it('shrink even a block of one short event (a model streaming), with the preset dictionary', () => {
    const events = [{ type: 'model_delta', ts: 1796138754275, step: 3, text: 'The answer' }];
    expect(packEvents(events).length).toBeLessThan(JSON.stringify(events).length * 0.6);
  });

  it('refuse a block in a format this version does not know', () => {
    expect(() => unpackEvents(Buffer.of(9, 1, 2))).toThrow(/unknown format \(tag 9\)/);
  });
});
