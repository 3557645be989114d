import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, retryDelay } from '../../../src/llm/http/index.js';

describe('backoffDelay', () => {
  it('doubles each attempt, with half of each delay random, up to the cap', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { baseDelayMs: 100 }, low))).toEqual([50, 100, 200, 400]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, { baseDelayMs: 100 }, high))).toEqual([100, 200, 400, 800]);
    expect(backoffDelay(20, { baseDelayMs: 100, maxDelayMs: 1_000 }, high)).toBe(1_000);
  });
});

describe('parseRetryAfter', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads seconds, an HTTP date and retry-after-ms', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), now)).toBe(3_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 29 Nov 2026 12:00:07 GMT' }), now)).toBe(7_000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  });

  it('ignores a missing or unreadable header and never goes negative', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'Sun, 29 Nov 2026 11:00:00 GMT' }), now)).toBe(0);
  });
});

describe('retryDelay', () => {
  it("prefers the provider's Retry-After, capped, over backoff", () => {
    expect(retryDelay(0, 2_000, { maxRetryAfterMs: 30_000 })).toBe(2_000);
    expect(retryDelay(0, 3_600_000, { maxRetryAfterMs: 30_000 })).toBe(30_000);
    expect(retryDelay(1, undefined, { baseDelayMs: 100 }, () => 0)).toBe(100);
  });
});
