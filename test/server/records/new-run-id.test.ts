import { describe, expect, it } from 'vitest';
import { newRunId } from '../../../src/server/records/new-run-id.js';

describe('newRunId', () => {
  it('makes UUIDv7s that sort by creation time', async () => {
    const first = newRunId();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = newRunId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first < second).toBe(true);
    expect(Number.parseInt(second.replace('-', '').slice(0, 12), 16)).toBeLessThanOrEqual(Date.now());
  });
});
