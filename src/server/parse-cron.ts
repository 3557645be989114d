/** A parsed five-field cron expression: the allowed values of each field. */
export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Both day fields restricted: either may match (classic cron). */
  dayOr: boolean;
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

export type CronResult = { ok: true; cron: Cron } | { ok: false; reason: string };

function parseField(text: string, min: number, max: number): Set<number> | string {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) return `"${part}" is not a number, range, list or step`;
    const step = match[4] ? Number(match[4]) : 1;
    const from = match[1] === '*' ? min : Number(match[2]);
    const to = match[1] === '*' ? max : match[3] ? Number(match[3]) : match[4] ? max : from;
    if (from < min || to > max || from > to || step < 1) return `"${part}" is outside ${min}-${max}`;
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/**
 * Parses `minute hour day-of-month month day-of-week` (numbers, `*`, ranges `a-b`, lists `a,b` and
 * steps `/n`; Sunday is 0 or 7). Never throws.
 */
export function parseCron(expression: string): CronResult {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return { ok: false, reason: `expected 5 fields, got ${parts.length}` };
  const sets: Set<number>[] = [];
  for (const [i, field] of FIELDS.entries()) {
    const parsed = parseField(parts[i], field.min, field.max);
    if (typeof parsed === 'string') return { ok: false, reason: `${field.name}: ${parsed}` };
    sets.push(parsed);
  }
  const weekdays = sets[4];
  if (weekdays.has(7)) weekdays.add(0);
  return {
    ok: true,
    cron: {
      minutes: sets[0],
      hours: sets[1],
      days: sets[2],
      months: sets[3],
      weekdays,
      dayOr: parts[2] !== '*' && parts[4] !== '*',
    },
  };
}

function dayMatches(cron: Cron, date: Date): boolean {
  const day = cron.days.has(date.getDate());
  const weekday = cron.weekdays.has(date.getDay());
  return cron.dayOr ? day || weekday : day && weekday;
}

/** The first minute strictly after `after` that the expression matches (local time), within ~4 years. */
export function nextCronTime(cron: Cron, after: Date): Date | undefined {
  const t = new Date(after.getTime());
  t.setSeconds(0, 0);
  t.setMinutes(t.getMinutes() + 1);
  const limit = after.getTime() + 4 * 366 * 24 * 3600 * 1000;
  while (t.getTime() < limit) {
    if (!cron.months.has(t.getMonth() + 1)) {
      t.setMonth(t.getMonth() + 1, 1);
      t.setHours(0, 0);
    } else if (!dayMatches(cron, t)) {
      t.setDate(t.getDate() + 1);
      t.setHours(0, 0);
    } else if (!cron.hours.has(t.getHours())) {
      t.setHours(t.getHours() + 1, 0);
    } else if (!cron.minutes.has(t.getMinutes())) {
      t.setMinutes(t.getMinutes() + 1);
    } else {
      return t;
    }
  }
  return undefined;
}
