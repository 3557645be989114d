import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ParsedStep, REPLY_HABITS } from '../../src/core/index.js';
import { parseJsonAction, parseReAct } from '../../src/protocols/index.js';

/** One real-world reply and how it must be read. */
interface CorpusEntry {
  id: string;
  /** Where the reply (or its shape) came from: issue thread, model card, paper. */
  source: string;
  style: string;
  /** The habit class the reply shows (see REPLY_HABITS), for entries collected for one. */
  habit?: string;
  parser: 'react' | 'json';
  input: string;
  expected:
    | { type: 'action'; tool: string; input: unknown; thought?: string; repaired?: boolean; habits?: string[] }
    | { type: 'final'; answer: string; thought?: string; repaired?: boolean; habits?: string[] }
    | { type: 'invalid'; reasonIncludes: string };
}

const corpus: CorpusEntry[] = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'protocols', 'corpus.json'), 'utf8'),
);
const parsers = { react: parseReAct, json: parseJsonAction };

/** The fields a corpus entry pins down; `thought` only when the entry states it. */
function comparable(step: ParsedStep, expected: CorpusEntry['expected']): Record<string, unknown> {
  if (step.type === 'invalid') return { type: 'invalid', reason: step.reason };
  const base: Record<string, unknown> =
    step.type === 'action'
      ? { type: step.type, tool: step.tool, input: step.input }
      : { type: step.type, answer: step.answer };
  base.repaired = step.repaired ?? false;
  if ('thought' in expected && expected.thought !== undefined) base.thought = step.thought;
  if ('habits' in expected && expected.habits !== undefined) base.habits = step.habits;
  return base;
}

describe('parser corpus of real model outputs', () => {
  it('has at least 100 entries, each with a source', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    for (const entry of corpus) expect(entry.source.length, entry.id).toBeGreaterThan(5);
    expect(new Set(corpus.map((e) => e.id)).size).toBe(corpus.length);
  });

  it('covers every habit class with sourced entries', () => {
    for (const habit of REPLY_HABITS) {
      const entries = corpus.filter((e) => e.habit === habit);
      expect(entries.length, habit).toBeGreaterThanOrEqual(5);
      for (const entry of entries) expect(entry.source, entry.id).toMatch(/^https:\/\//);
    }
  });

  it.each(corpus.map((e) => [e.id, e] as const))('%s', (_id, entry) => {
    const step = parsers[entry.parser](entry.input);
    const { expected } = entry;
    if (expected.type === 'invalid') {
      expect(step.type).toBe('invalid');
      if (step.type === 'invalid') {
        expect(step.reason).toContain(expected.reasonIncludes);
        expect(step.raw).toBe(entry.input);
      }
      return;
    }
    expect(comparable(step, expected)).toEqual({ repaired: false, ...expected });
  });
});
