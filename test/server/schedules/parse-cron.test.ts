import { describe, expect, it } from 'vitest';
import { nextCronTime, parseCron } from '../../../src/server/index.js';

/** The next `count` times after `from` (an instant), as ISO strings in UTC. */
function nextTimes(expression: string, from: string, options: { timezone?: string; count?: number } = {}): string[] {
  const parsed = parseCron(expression, { timezone: options.timezone });
  if (!parsed.ok) throw new Error(parsed.reason);
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < (options.count ?? 1); i++) {
    const next = nextCronTime(parsed.cron, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next;
  }
  return out;
}

const utc = { timezone: 'UTC' };

describe('parseCron / nextCronTime', () => {
  it('finds the next matching minute for steps, ranges, lists and weekdays', () => {
    expect(nextTimes('* * * * *', '2026-03-04T10:15:30Z', utc)).toEqual(['2026-03-04T10:16:00.000Z']);
    expect(nextTimes('* * * * *', '2026-03-04T10:16:00Z', utc)).toEqual(['2026-03-04T10:17:00.000Z']); // strictly after
    expect(nextTimes('*/15 * * * *', '2026-03-04T10:15:00Z', utc)).toEqual(['2026-03-04T10:30:00.000Z']);
    expect(nextTimes('0 9 * * 1-5', '2026-03-06T09:00:00Z', utc)).toEqual(['2026-03-09T09:00:00.000Z']); // Fri → Mon
    expect(nextTimes('30 8,20 * * *', '2026-03-04T09:00:00Z', utc)).toEqual(['2026-03-04T20:30:00.000Z']);
    expect(nextTimes('0 0 1 * *', '2026-12-15T00:00:00Z', utc)).toEqual(['2027-01-01T00:00:00.000Z']);
    expect(nextTimes('0 12 * * 7', '2026-03-04T00:00:00Z', utc)).toEqual(['2026-03-08T12:00:00.000Z']); // 7 is Sunday
    expect(nextTimes('0 0 29 2 *', '2026-03-01T00:00:00Z', utc)).toEqual(['2028-02-29T00:00:00.000Z']);
  });

  it('matches either day field when both are restricted, as classic cron does', () => {
    expect(nextTimes('0 0 13 * 5', '2026-03-01T00:00:00Z', utc)).toEqual(['2026-03-06T00:00:00.000Z']);
  });

  it('reads names, nicknames, L and # (the usual extensions)', () => {
    expect(nextTimes('0 9 * * MON-FRI', '2026-03-06T09:00:00Z', { ...utc, count: 2 })).toEqual([
      '2026-03-09T09:00:00.000Z',
      '2026-03-10T09:00:00.000Z',
    ]);
    expect(nextTimes('0 0 1 JAN *', '2026-03-01T00:00:00Z', utc)).toEqual(['2027-01-01T00:00:00.000Z']);
    expect(nextTimes('@daily', '2026-03-04T10:15:00Z', utc)).toEqual(['2026-03-05T00:00:00.000Z']);
    expect(nextTimes('@hourly', '2026-03-04T10:15:00Z', utc)).toEqual(['2026-03-04T11:00:00.000Z']);
    expect(nextTimes('@weekly', '2026-03-04T10:15:00Z', utc)).toEqual(['2026-03-08T00:00:00.000Z']);
    expect(nextTimes('@monthly', '2026-03-04T10:15:00Z', utc)).toEqual(['2026-04-01T00:00:00.000Z']);
    expect(nextTimes('@yearly', '2026-03-04T10:15:00Z', utc)).toEqual(['2027-01-01T00:00:00.000Z']);
    expect(nextTimes('0 18 L * *', '2026-02-01T00:00:00Z', { ...utc, count: 2 })).toEqual([
      '2026-02-28T18:00:00.000Z',
      '2026-03-31T18:00:00.000Z',
    ]);
    expect(nextTimes('0 17 * * FRI#L', '2026-03-01T00:00:00Z', utc)).toEqual(['2026-03-27T17:00:00.000Z']);
    expect(nextTimes('0 10 * * MON#1', '2026-03-04T00:00:00Z', utc)).toEqual(['2026-04-06T10:00:00.000Z']);
  });

  it('reads the expression in the given time zone', () => {
    expect(nextTimes('0 9 * * *', '2026-06-01T00:00:00Z', { timezone: 'America/New_York' })).toEqual([
      '2026-06-01T13:00:00.000Z', // 09:00 EDT
    ]);
    expect(nextTimes('0 9 * * *', '2026-06-01T00:00:00Z', { timezone: 'Asia/Kolkata' })).toEqual([
      '2026-06-01T03:30:00.000Z', // 09:00 IST
    ]);
  });

  it('answers undefined for a schedule that never matches', () => {
    expect(nextTimes('0 0 31 2 *', '2026-03-01T00:00:00Z', utc)).toEqual([]);
  });

  it('explains what is wrong with a bad expression or time zone instead of throwing', () => {
    expect(parseCron('* * * *')).toEqual({
      ok: false,
      reason: 'expected 5 fields (minute hour day-of-month month day-of-week) or a nickname such as @daily, got 4',
    });
    expect(parseCron('0 * * * * *')).toMatchObject({ ok: false, reason: expect.stringContaining('got 6') });
    expect(parseCron('61 * * * *')).toMatchObject({ ok: false, reason: expect.stringContaining('minute') });
    expect(parseCron('* * * * FUNDAY')).toMatchObject({ ok: false });
    expect(parseCron('*/0 * * * *')).toMatchObject({ ok: false, reason: expect.stringContaining('stepping') });
    expect(parseCron('@sometimes')).toMatchObject({ ok: false });
    expect(parseCron('0 9 * * *', { timezone: 'Mars/Olympus' })).toEqual({
      ok: false,
      reason: '"Mars/Olympus" is not an IANA time zone (such as "Europe/Berlin")',
    });
  });
});

describe('daylight saving time (Vixie cron rules)', () => {
  it('America/New_York spring forward: 02:30 does not exist on 8 March 2026, the job runs at 03:00 EDT', () => {
    expect(nextTimes('30 2 * * *', '2026-03-06T12:00:00Z', { timezone: 'America/New_York', count: 3 })).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT, first valid time after the gap: the day is not skipped
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
    ]);
  });

  it('America/New_York fall back: 01:30 happens twice on 1 November 2026, the job runs once', () => {
    expect(nextTimes('30 1 * * *', '2026-10-31T12:00:00Z', { timezone: 'America/New_York', count: 3 })).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, the first pass
      '2026-11-02T06:30:00.000Z', // 01:30 EST next day: nothing at the second 01:30
      '2026-11-03T06:30:00.000Z',
    ]);
  });

  it('Europe/Berlin spring forward: 02:30 does not exist on 29 March 2026, the job runs at 03:00 CEST', () => {
    expect(nextTimes('30 2 * * *', '2026-03-28T12:00:00Z', { timezone: 'Europe/Berlin', count: 3 })).toEqual([
      '2026-03-29T01:00:00.000Z', // 03:00 CEST
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('Europe/Berlin fall back: 02:30 happens twice on 25 October 2026, the job runs once', () => {
    expect(nextTimes('30 2 * * *', '2026-10-24T12:00:00Z', { timezone: 'Europe/Berlin', count: 3 })).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, the first pass
      '2026-10-26T01:30:00.000Z', // 02:30 CET next day
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('treats a list of fixed hours as fixed times too, so 02:30 still runs after the gap', () => {
    expect(nextTimes('30 2,14 * * *', '2026-03-29T00:00:00Z', { timezone: 'Europe/Berlin', count: 2 })).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T12:30:00.000Z',
    ]);
  });

  it('an interval job skips the missing hour and runs through the repeated one', () => {
    // Every 30 minutes, Berlin, over the spring gap (02:00–03:00 CET does not exist) ...
    expect(nextTimes('*/30 * * * *', '2026-03-29T00:15:00Z', { timezone: 'Europe/Berlin', count: 3 })).toEqual([
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
    ]);
    // ... and over the autumn repeat (02:00–03:00 runs in CEST, then again in CET).
    expect(nextTimes('0 2 * * *', '2026-10-24T12:00:00Z', { timezone: 'Europe/Berlin', count: 1 })).toEqual([
      '2026-10-25T00:00:00.000Z',
    ]);
    expect(nextTimes('*/30 2 * * *', '2026-10-24T23:45:00Z', { timezone: 'Europe/Berlin', count: 4 })).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
    ]);
  });
});
