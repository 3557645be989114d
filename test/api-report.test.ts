/**
 * The public surface grows only on purpose: every entry's names (runtime values and type-only names) are
 * listed in api-report/*.api.md, and this test fails when an entry exports a name its report does not list
 * or stops exporting one it does. `UPDATE_API_REPORT=1 npx vitest run test/api-report.test.ts` rewrites the
 * reports; review the diff like code.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Entry,
  packageEntries,
  ROOT,
  renderReport,
  type Surface,
  typeOnlyExports,
} from './helpers/api-surface.js';

const REPORTS = join(ROOT, 'api-report');
const UPDATE = process.env.UPDATE_API_REPORT === '1';
const entries = packageEntries();
const surfaces = new Map<string, Surface>();

beforeAll(async () => {
  const runtime = new Map<string, string[]>();
  for (const entry of entries) {
    const module: Record<string, unknown> = await import(join(ROOT, entry.source));
    runtime.set(entry.source, Object.keys(module).sort());
  }
  const types = typeOnlyExports(
    entries.map((e) => e.source),
    runtime,
  );
  for (const entry of entries) {
    surfaces.set(entry.specifier, { values: runtime.get(entry.source) ?? [], types: types.get(entry.source) ?? [] });
  }
}, 600_000);

const surfaceOf = (entry: Entry): Surface => {
  const surface = surfaces.get(entry.specifier);
  if (!surface) throw new Error(`${entry.specifier}: not loaded`);
  return surface;
};

describe('the API report', () => {
  it('every file in src/entries/ is an entry in package.json, and every entry has its report', () => {
    const sources = new Set(entries.map((e) => e.source));
    const files = readdirSync(join(ROOT, 'src', 'entries')).map((name) => `src/entries/${name}`);
    expect(files.filter((file) => !sources.has(file))).toEqual([]);
    expect(entries.filter((e) => !existsSync(join(ROOT, e.source))).map((e) => e.source)).toEqual([]);
    if (UPDATE) return;
    const reports = readdirSync(REPORTS).sort();
    expect(reports).toEqual(entries.map((e) => e.report).sort());
  });

  it.each(entries.map((entry) => [entry.specifier, entry] as const))('%s exports what its report lists', (_, entry) => {
    const report = renderReport(entry, surfaceOf(entry));
    const file = join(REPORTS, entry.report);
    if (UPDATE) writeFileSync(file, report);
    expect(report, `${entry.report} is out of date: UPDATE_API_REPORT=1 rewrites it`).toBe(readFileSync(file, 'utf8'));
  });

  it('the root entry exports at most 100 names, types included', () => {
    const root = surfaceOf(entries.find((e) => e.specifier === 'thinkflow') as Entry);
    expect(root.values.length + root.types.length).toBeLessThanOrEqual(100);
  });

  it('a name added to an entry without its report fails the check', () => {
    const entry = entries[0];
    const surface = surfaceOf(entry);
    const grown = renderReport(entry, { ...surface, values: [...surface.values, 'unplanned'].sort() });
    expect(grown).not.toBe(renderReport(entry, surface));
  });
});
