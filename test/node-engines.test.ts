/**
 * The package runs on the Node its `engines` names (≥ 20.19), and so does its development: CI runs Node 20.
 * No installed package the published package depends on may ask for a newer Node. A few dev-only tools declare
 * Node ≥ 22 (npm warns EBADENGINE on Node 20) although what the tests use of them works on Node 20; they are
 * listed here, and in README.md's "Develop and test", so a new one is a decision, not a surprise.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean; engines?: { node?: string } | string[] }>;
};

/** [major, minor, patch] of a version or partial version ("20", "20.x", "6.*"), missing parts as 0. */
const parts = (version: string): number[] =>
  version
    .replace(/^v/, '')
    .split('.')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : 0))
    .concat([0, 0, 0])
    .slice(0, 3);
const compare = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const wildcard = (version: string) => version.split('.').length < 3 || /[x*]/.test(version);

/** Whether `version` satisfies one comparator (`>=20.19.0`, `^20.9.0`, `20.x`, `*`). */
function satisfiesOne(version: number[], comparator: string): boolean {
  const [, op, raw] = comparator.match(/^(>=|<=|>|<|\^|~|=)?v?(.*)$/) ?? [];
  if (raw === '*' || raw === 'x' || raw === '') return true;
  const bound = parts(raw);
  const c = compare(version, bound);
  if (op === '>=') return c >= 0;
  if (op === '>') return c > 0;
  if (op === '<=') return c <= 0;
  if (op === '<') return c < 0;
  if (op === '^') return c >= 0 && version[0] === bound[0];
  if (op === '~') return c >= 0 && version[0] === bound[0] && version[1] === bound[1];
  if (wildcard(raw)) return raw.split('.').every((p, i) => !/^\d+$/.test(p) || Number(p) === version[i]);
  return c === 0;
}

/** Whether `version` satisfies a node-semver range as packages write `engines.node`. */
function satisfies(version: string, range: string): boolean {
  const v = parts(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => satisfiesOne(v, comparator)),
  );
}

/** Installed packages whose `engines.node` refuses `version`, as `path@version`, with whether they are dev-only. */
function refusing(version: string): { name: string; dev: boolean }[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!path || !range || satisfies(version, range)) return [];
    return [{ name: `${path.replace(/^.*node_modules\//, '')}@${entry.version}`, dev: entry.dev === true }];
  });
}

describe('Node versions', () => {
  it('reads ranges as npm does', () => {
    expect(satisfies('20.19.0', '>=20.19.0')).toBe(true);
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '>= 20')).toBe(true);
    expect(satisfies('20.19.0', '20.x || 22.x')).toBe(true);
    expect(satisfies('20.19.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(satisfies('20.19.0', '>=20.20.0')).toBe(false);
    expect(satisfies('20.19.0', '6.* || 8.* || >= 10.*')).toBe(true);
  });

  it('nothing the published package installs asks for a newer Node than its engines field', () => {
    const floor = String(pkg.engines.node).replace(/^>=\s*/, '');
    expect(floor).toBe('20.19.0');
    expect(refusing(floor).filter((p) => !p.dev)).toEqual([]);
  });

  it('the dev-only tools that declare Node ≥ 22 are the known ones (README.md, "Develop and test")', () => {
    const names = refusing('20.19.0').map((p) => p.name.replace(/@[^@]*$/, ''));
    expect([...new Set(names)].sort()).toEqual(['content-type', 'miniflare', 'openai']);
  });
});
