import { z } from 'zod';
import type { AnyTool, Tool } from '../tool.js';
import { defineTool } from '../tool.js';

const UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;
type DateUnit = (typeof UNITS)[number];

const MS: Partial<Record<DateUnit, number>> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

const CurrentTimeInput = z.object({
  time_zone: z.string().default('UTC').describe('IANA time zone, e.g. "Europe/Paris" or "Asia/Shanghai".'),
});

const DateAddInput = z.object({
  date: z.string().describe('ISO date or date-time, e.g. "2024-01-31" or "2024-01-31T10:00:00Z".'),
  amount: z.number().int().describe('How many units to add (negative to subtract).'),
  unit: z.enum(UNITS),
});

const DateDiffInput = z.object({
  from: z.string().describe('ISO date or date-time.'),
  to: z.string().describe('ISO date or date-time.'),
  unit: z.enum(UNITS).default('days'),
});

/** Parses an ISO date (`2024-01-31`, read as UTC midnight) or date-time; throws a message the model can act on. */
export function parseIsoDate(text: string): Date {
  const trimmed = text.trim();
  const value = /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed) || Number.isNaN(date.getTime())) {
    throw new Error(`"${text}" is not an ISO date; use YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ.`);
  }
  return date;
}

/** Adds calendar units in UTC; months and years clamp to the month's last day (Jan 31 + 1 month = Feb 29 in 2024). */
export function addToDate(date: Date, amount: number, unit: DateUnit): Date {
  const fixed = MS[unit];
  if (fixed !== undefined) return new Date(date.getTime() + amount * fixed);
  const months = unit === 'years' ? amount * 12 : amount;
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** Whole units from `from` to `to` (negative when `to` is earlier); months and years count complete calendar months. */
export function diffDates(from: Date, to: Date, unit: DateUnit): number {
  const fixed = MS[unit];
  if (fixed !== undefined) return Math.trunc((to.getTime() - from.getTime()) / fixed);
  const sign = to >= from ? 1 : -1;
  const [a, b] = sign > 0 ? [from, to] : [to, from];
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  if (addToDate(a, months, 'months') > b) months--;
  return sign * (unit === 'years' ? Math.trunc(months / 12) : months);
}

function formatIso(date: Date): string {
  return date.toISOString().replace('T00:00:00.000Z', '').replace('.000Z', 'Z');
}

/** `current_time`: the date, time and weekday now in a time zone (Intl). `now` is injectable for tests. */
export function currentTimeTool(now: () => Date = () => new Date()): Tool<z.infer<typeof CurrentTimeInput>, string> {
  return defineTool({
    name: 'current_time',
    description: 'The current date, time and weekday in a time zone.',
    input: CurrentTimeInput,
    run: ({ time_zone }) => {
      let format: Intl.DateTimeFormat;
      try {
        format = new Intl.DateTimeFormat('en-CA', {
          timeZone: time_zone,
          dateStyle: 'full',
          timeStyle: 'long',
          hourCycle: 'h23',
        });
      } catch {
        throw new Error(`Unknown time zone "${time_zone}"; use an IANA name like "America/New_York".`);
      }
      const date = now();
      return `${format.format(date)} (${time_zone}); UTC ${date.toISOString()}`;
    },
  });
}

/** The datetime kit: `current_time`, `date_add` and `date_diff`. */
export function datetimeTools(): AnyTool[] {
  const dateAdd = defineTool({
    name: 'date_add',
    description: 'Add (or subtract) minutes, hours, days, weeks, months or years to a date.',
    input: DateAddInput,
    idempotent: true,
    run: (input) => formatIso(addToDate(parseIsoDate(input.date), input.amount, input.unit)),
  });
  const dateDiff = defineTool({
    name: 'date_diff',
    description: 'The number of whole minutes, hours, days, weeks, months or years between two dates.',
    input: DateDiffInput,
    idempotent: true,
    run: (input) => {
      const count = diffDates(parseIsoDate(input.from), parseIsoDate(input.to), input.unit);
      return `${count} ${input.unit} from ${input.from} to ${input.to}`;
    },
  });
  return [currentTimeTool(), dateAdd, dateDiff];
}
