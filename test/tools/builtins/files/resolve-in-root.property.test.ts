import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, resolveInRoot } from '../../../../src/tools/builtins/files/resolve-in-root.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tf-prop-')));
  root = path.join(base, 'root');
  await mkdir(path.join(root, 'a', 'b'), { recursive: true });
  await mkdir(path.join(base, 'root-evil'));
  await writeFile(path.join(root, 'a', 'f.txt'), 'x');
  await symlink(base, path.join(root, 'up'));
  await symlink('/etc', path.join(root, 'a', 'etc'));
  await symlink(path.join(root, 'a'), path.join(root, 'in'));
  await symlink(path.join(base, 'nowhere'), path.join(root, 'dangling'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const segment = fc.constantFrom(
  '..',
  '.',
  '',
  'a',
  'b',
  'f.txt',
  'up',
  'in',
  'etc',
  'dangling',
  'new',
  'passwd',
  '..\\..',
  '\uff0e\uff0e',
  '\u2215',
  '%2e%2e',
  '...',
  'root-evil',
  '\0',
);

const candidate = fc.oneof(
  fc.array(segment, { maxLength: 6 }).map((parts) => parts.join('/')),
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
  fc.array(segment, { maxLength: 4 }).map((parts) => `${root}/${parts.join('/')}`),
  fc.array(segment, { maxLength: 4 }).map((parts) => `${base}/root-evil/${parts.join('/')}`),
);

describe('resolveInRoot never escapes (property)', () => {
  it('every accepted path lies inside the real root, whatever the mix of .., links and look-alikes', async () => {
    await fc.assert(
      fc.asyncProperty(candidate, async (requested) => {
        const result = await resolveInRoot(root, requested);
        if (!result.ok) return;
        expect(isInside(root, result.path)).toBe(true);
        expect(result.path.startsWith(`${base}/root-evil`)).toBe(false);
        expect(requested).not.toMatch(/(?:^|[\\/])\.\.(?:[\\/]|$)|\0|[\uff0e\u2215]/u);
      }),
      { numRuns: 400 },
    );
  });
});
