import { describe, expect, it } from 'vitest';
import { nextCronTime, parseCron } from '../../src/server/index.js';

function next(expression: string, from: string): string | undefined {
  const parsed = parseCron(expression);
  if (!parsed.ok) throw new Error(parsed.reason);
  const at = nextCronTime(parsed.cron, new Date(from));
  return (
    at &&
    `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')} ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
  );
}

describe('parseCron / nextCronTime', () => {
  it('finds the next matching minute for steps, ranges, lists and weekdays', () => {
    expect(next('* * * * *', '2026-03-04T10:15:30')).toBe('2026-03-04 10:16');
    expect(next('*/15 * * * *', '2026-03-04T10:15:00')).toBe('2026-03-04 10:30');
    expect(next('0 9 * * 1-5', '2026-03-06T09:00:00')).toBe('2026-03-09 09:00'); // Friday 09:00 → Monday
    expect(next('30 8,20 * * *', '2026-03-04T09:00:00')).toBe('2026-03-04 20:30');
    expect(next('0 0 1 * *', '2026-12-15T00:00:00')).toBe('2027-01-01 00:00');
    expect(next('0 12 * * 7', '2026-03-04T00:00:00')).toBe('2026-03-08 12:00'); // 7 is Sunday too
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00')).toBe('2028-02-29 00:00');
  });

  it('matches either day field when both are restricted, as classic cron does', () => {
    expect(next('0 0 13 * 5', '2026-03-01T00:00:00')).toBe('2026-03-06 00:00'); // first Friday before the 13th
  });

  it('explains what is wrong with a bad expression instead of throwing', () => {
    expect(parseCron('* * * *')).toEqual({ ok: false, reason: 'expected 5 fields, got 4' });
    expect(parseCron('61 * * * *')).toMatchObject({ ok: false, reason: expect.stringContaining('minute') });
    expect(parseCron('* * * * mon')).toMatchObject({ ok: false, reason: expect.stringContaining('day of week') });
    expect(parseCron('*/0 * * * *').ok).toBe(false);
  });
});
