import { Cron as Croner } from 'croner';

/**
 * A parsed cron schedule (croner underneath): the expression, the IANA time zone it is read in
 * (`undefined`: the server's local zone), and the pattern that finds the next time.
 */
export interface Cron {
  readonly expression: string;
  readonly timezone: string | undefined;
  readonly pattern: Croner;
}

export type CronResult = { ok: true; cron: Cron } | { ok: false; reason: string };

/** Options for `parseCron`. */
export interface ParseCronOptions {
  /** IANA time zone the expression is read in (`'Europe/Berlin'`). Default: the server's local zone. */
  timezone?: string;
}

function validTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a five-field cron expression (`minute hour day-of-month month day-of-week`) with croner:
 * numbers, `*`, ranges, lists and steps, names (`MON-FRI`, `JAN`), `L` (last day, `FRI#L` last
 * Friday), `W`, `#`, and the nicknames `@yearly`, `@monthly`, `@weekly`, `@daily`, `@hourly`.
 * Sunday is 0 or 7; when both day fields are restricted either may match (classic cron).
 * Never throws: a bad expression or time zone is `{ ok: false, reason }`.
 *
 * Daylight saving time follows Vixie cron: a job at fixed times (no `*` or step in the minute and
 * hour fields, such as `30 2 * * *`) whose time falls in the spring-forward gap runs at the first
 * valid time after it (03:00 that day), and runs once when the autumn hour repeats. A job with a
 * `*` or step in those fields (`*\/15 * * * *`) skips the times that do not exist and runs on both
 * passes through the repeated hour.
 *
 * @example
 * const parsed = parseCron('30 2 * * MON-FRI', { timezone: 'America/New_York' });
 * if (parsed.ok) nextCronTime(parsed.cron, new Date());
 */
export function parseCron(expression: string, options: ParseCronOptions = {}): CronResult {
  const { timezone } = options;
  if (timezone !== undefined && !validTimezone(timezone)) {
    return { ok: false, reason: `"${timezone}" is not an IANA time zone (such as "Europe/Berlin")` };
  }
  const fields = expression
    .trim()
    .split(/\s+/)
    .filter((f) => f !== '');
  if (!fields[0]?.startsWith('@') && fields.length !== 5) {
    return {
      ok: false,
      reason: `expected 5 fields (minute hour day-of-month month day-of-week) or a nickname such as @daily, got ${fields.length}`,
    };
  }
  try {
    const pattern = new Croner(expression.trim(), { mode: '5-part', timezone, fixedTimeRule: 'no-wildcard' });
    return { ok: true, cron: { expression, timezone, pattern } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: message.replace(/^CronPattern: /, '') };
  }
}

/** The first time strictly after `after` that the schedule matches, or `undefined` if it never does again. */
export function nextCronTime(cron: Cron, after: Date): Date | undefined {
  return cron.pattern.nextRun(after) ?? undefined;
}
