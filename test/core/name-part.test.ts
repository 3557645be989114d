import { describe, expect, it } from 'vitest';
import { namePart } from '../../src/core/index.js';

describe('namePart: text of any language as part of a file name or an id', () => {
  it('keeps letters and digits of every script, and _ . -', () => {
    for (const text of ['multiply', '法国的首都', 'café', 'नमस्ते', 'v1.2_final-3']) expect(namePart(text)).toBe(text);
  });

  it('turns every other run of characters into one _, and adds a hash so two texts never share a name', () => {
    const names = ['a b', 'a_b', 'a/b', 'a\\b', 'a:b', 'a  b', '../x', '首都？', '首都!'].map((t) => namePart(t));
    expect(new Set(names).size).toBe(names.length);
    expect(namePart('a b')).toMatch(/^a_b~[0-9a-f]{8}$/);
    expect(namePart('../x')).toMatch(/^.._x~[0-9a-f]{8}$/);
    for (const name of names) expect(name).not.toMatch(/[/\\:\s]/);
  });

  it('never answers a folder name or nothing, and cuts long text to 60 characters', () => {
    for (const text of ['', '.', '..', '///']) expect(namePart(text)).toMatch(/~[0-9a-f]{8}$/);
    const long = '长'.repeat(100);
    expect(namePart(long)).toMatch(/^长{60}~[0-9a-f]{8}$/);
    expect(namePart(long)).not.toBe(namePart(`${long}!`));
  });

  it('leaves the hash out with distinct: false (a name unique otherwise)', () => {
    expect(namePart('support bot: v2', { distinct: false })).toBe('support_bot_v2');
    expect(namePart('', { distinct: false })).toBe('_');
  });
});
