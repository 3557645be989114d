import { describe, expect, it } from 'vitest';
import { plural } from '../../src/core/index.js';

describe('plural', () => {
  it('writes the singular for exactly one and the plural for every other count', () => {
    expect([0, 1, 2].map((n) => plural(n, 'tool'))).toEqual(['0 tools', '1 tool', '2 tools']);
    expect(plural(1, 'LLM call')).toBe('1 LLM call');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
  });
});
