import { describe, expect, it } from 'vitest';
import { extractJson } from '../../../src/protocols/shared/json.js';

describe('extractJson', () => {
  it('finds the first balanced object in prose', () => {
    expect(extractJson('before {"a": {"b": 1}} after {"c": 2}')).toMatchObject({
      json: '{"a": {"b": 1}}',
      truncated: false,
    });
  });

  it('prefers a fenced JSON block', () => {
    const text = 'Example {not json}\n```json\n{"a": 1}\n```';
    expect(extractJson(text)?.json).toBe('{"a": 1}');
  });

  it('skips fences in other languages', () => {
    expect(extractJson('```python\nx = {1: 2}\n```\n{"a": 1}')?.json).toBe('{"a": 1}');
  });

  it('ignores braces inside strings', () => {
    expect(extractJson('{"a": "}{", "b": "\\"}"}')?.json).toBe('{"a": "}{", "b": "\\"}"}');
  });

  it('reports truncation, and whether it happened inside a string', () => {
    expect(extractJson('{"a": [1, 2')).toMatchObject({ truncated: true, cutInString: false });
    expect(extractJson('{"a": "cut')).toMatchObject({ truncated: true, cutInString: true });
  });

  it('finds arrays of objects but not bracketed words', () => {
    expect(extractJson('[TOOL_CALLS] [{"name": "a"}]')?.json).toBe('[{"name": "a"}]');
    expect(extractJson('see [link] and nothing else')).toBeUndefined();
  });

  it('returns start and end offsets into the reply', () => {
    const text = 'ok: {"a": 1} done';
    const span = extractJson(text);
    expect(text.slice(span?.start, span?.end)).toBe('{"a": 1}');
  });
});
