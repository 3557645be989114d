import { describe, expect, it } from 'vitest';
import { stripThink } from '../../../src/protocols/shared/special-tokens.js';

describe('stripThink', () => {
  it('removes a <think> block and returns it as the thought', () => {
    expect(stripThink('<think>\n a \n</think>\n\nanswer')).toEqual({ text: 'answer', thought: 'a' });
  });

  it('handles several blocks and the <thinking> spelling', () => {
    expect(stripThink('<think>a</think>x<thinking>b</thinking>y')).toEqual({ text: 'x\ny', thought: 'a\n\nb' });
  });

  it('treats text before a lone </think> as reasoning', () => {
    expect(stripThink('a</think>b')).toEqual({ text: 'b', thought: 'a' });
  });

  it('treats text after an unclosed <think> as reasoning', () => {
    expect(stripThink('x<think>still going')).toEqual({ text: 'x', thought: 'still going' });
  });

  it('leaves text without tags alone and omits an empty thought', () => {
    expect(stripThink(' plain ')).toEqual({ text: 'plain' });
    expect(stripThink('<think>\n</think>plain')).toEqual({ text: 'plain' });
  });
});
