import { describe, expect, it } from 'vitest';
import {
  addToDate,
  currentTimeTool,
  datetimeTools,
  diffDates,
  parseIsoDate,
} from '../../../src/tools/builtins/datetime.js';
import { pick, runTool } from './run-tool.js';

const d = (text: string) => parseIsoDate(text);

describe('current_time', () => {
  it('formats now in the requested time zone', async () => {
    const tool = currentTimeTool(() => new Date('2024-03-10T12:30:00Z'));
    const text = (await runTool(tool, { time_zone: 'Asia/Shanghai' })) as string;
    expect(text).toContain('Sunday, March 10, 2024');
    expect(text).toContain('20:30:00');
    expect(text).toContain('UTC 2024-03-10T12:30:00.000Z');
  });

  it('names an unknown time zone', async () => {
    await expect(runTool(currentTimeTool(), { time_zone: 'Mars/Olympus' })).rejects.toThrow(
      /Unknown time zone "Mars\/Olympus"/,
    );
  });
});

describe('date arithmetic', () => {
  it('adds days, weeks and hours', () => {
    expect(addToDate(d('2024-02-28'), 2, 'days').toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(addToDate(d('2024-01-01'), -1, 'weeks').toISOString()).toBe('2023-12-25T00:00:00.000Z');
    expect(addToDate(d('2024-01-01T23:00:00Z'), 2, 'hours').toISOString()).toBe('2024-01-02T01:00:00.000Z');
  });

  it('clamps months and years to the end of the month', () => {
    expect(addToDate(d('2024-01-31'), 1, 'months').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addToDate(d('2023-01-31'), 1, 'months').toISOString()).toBe('2023-02-28T00:00:00.000Z');
    expect(addToDate(d('2024-02-29'), 1, 'years').toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(addToDate(d('2024-03-31'), -1, 'months').toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('counts whole units between dates, in both directions', () => {
    expect(diffDates(d('2024-01-01'), d('2024-03-01'), 'days')).toBe(60);
    expect(diffDates(d('2024-01-31'), d('2024-02-29'), 'months')).toBe(1);
    expect(diffDates(d('2024-01-31'), d('2024-02-28'), 'months')).toBe(0);
    expect(diffDates(d('2020-06-15'), d('2024-06-14'), 'years')).toBe(3);
    expect(diffDates(d('2024-06-14'), d('2020-06-15'), 'years')).toBe(-3);
  });

  it('exposes date_add and date_diff as tools with readable errors', async () => {
    const tools = datetimeTools();
    expect(await runTool(pick(tools, 'date_add'), { date: '2024-01-31', amount: 1, unit: 'months' })).toBe(
      '2024-02-29',
    );
    expect(await runTool(pick(tools, 'date_add'), { date: '2024-01-31T10:00:00Z', amount: 90, unit: 'minutes' })).toBe(
      '2024-01-31T11:30:00Z',
    );
    expect(await runTool(pick(tools, 'date_diff'), { from: '2024-01-01', to: '2024-12-25' })).toBe(
      '359 days from 2024-01-01 to 2024-12-25',
    );
    await expect(runTool(pick(tools, 'date_add'), { date: 'next tuesday', amount: 1, unit: 'days' })).rejects.toThrow(
      /not an ISO date/,
    );
    await expect(runTool(pick(tools, 'date_add'), { date: '2024-13-45', amount: 1, unit: 'days' })).rejects.toThrow(
      /not an ISO date/,
    );
  });
});
