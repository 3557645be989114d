import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReAct } from '../../../src/protocols/index.js';

interface Entry {
  id: string;
  class: string;
  lang: 'en' | 'zh';
  input: string;
  expected: { type: string; tool?: string; input?: unknown; answer?: string; thought?: string };
}

/**
 * One fixture per class of ReAct reply the parser used to miss (#44), in English and Chinese: markdown
 * bold keywords, a whole reply on one line, control characters inside the input JSON, ReAct lines in a
 * fence, a call written on the Action line, notes after the tool's name, the ReAct paper's own
 * `Finish[…]`/`Search[…]` lines, keywords as markdown headings or as tags, and neighbours that must stay as they were.
 */
const entries: Entry[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/protocols/react-reply-classes.json'), 'utf8'),
);

describe('parseReAct reads each class of reply models write', () => {
  it('has English and Chinese fixtures for every class', () => {
    const classes = new Set(entries.map((e) => e.class));
    for (const name of classes) {
      expect(entries.some((e) => e.class === name && e.lang === 'en')).toBe(true);
      expect(entries.some((e) => e.class === name && e.lang === 'zh')).toBe(true);
    }
  });

  it.each(entries.map((e) => [e.id, e] as const))('%s', (_id, entry) => {
    expect(parseReAct(entry.input)).toMatchObject(entry.expected);
  });
});
