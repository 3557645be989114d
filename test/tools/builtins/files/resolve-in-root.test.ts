import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmFolderUnchanged,
  isInside,
  resolveInRoot,
} from '../../../../src/tools/builtins/files/resolve-in-root.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'tf-root-'));
  root = path.join(base, 'root');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await mkdir(path.join(base, 'root-evil'));
  await writeFile(path.join(root, 'a.txt'), 'a');
  await writeFile(path.join(base, 'root-evil', 'secret.txt'), 'secret');
  await writeFile(path.join(base, 'outside.txt'), 'outside');
  await symlink(path.join(base, 'outside.txt'), path.join(root, 'link-out'));
  await symlink(path.join(base, 'root-evil'), path.join(root, 'dir-out'));
  await symlink(path.join(root, 'a.txt'), path.join(root, 'link-in'));
  await symlink(path.join(base, 'not-yet.txt'), path.join(root, 'dangling-out'));
  await symlink(path.join(root, 'not-yet.txt'), path.join(root, 'dangling-in'));
  await symlink('../..', path.join(root, 'sub', 'up'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refused(requested: string): Promise<string> {
  const result = await resolveInRoot(root, requested);
  if (result.ok) throw new Error(`expected "${requested}" to be refused, got ${result.path}`);
  return result.reason;
}

describe('resolveInRoot accepts paths inside the root', () => {
  it('resolves a relative file to its real path', async () => {
    const result = await resolveInRoot(root, 'a.txt');
    expect(result).toMatchObject({ ok: true, relative: 'a.txt', exists: true });
  });

  it('accepts "." and "./sub/" as the root and a folder', async () => {
    expect(await resolveInRoot(root, '.')).toMatchObject({ ok: true, relative: '.' });
    expect(await resolveInRoot(root, './sub/')).toMatchObject({ ok: true, relative: 'sub' });
  });

  it('accepts an absolute path that lies inside the root', async () => {
    expect(await resolveInRoot(root, path.join(root, 'a.txt'))).toMatchObject({ ok: true, relative: 'a.txt' });
  });

  it('follows a symbolic link whose target stays inside', async () => {
    expect(await resolveInRoot(root, 'link-in')).toMatchObject({ ok: true, relative: 'a.txt' });
  });

  it('accepts a new file in a new folder (for writes)', async () => {
    expect(await resolveInRoot(root, 'new/deeper/file.txt')).toMatchObject({
      ok: true,
      relative: path.join('new', 'deeper', 'file.txt'),
      exists: false,
    });
  });

  it('treats a name that merely contains dots as a name', async () => {
    expect(await resolveInRoot(root, '..hidden')).toMatchObject({ ok: true, relative: '..hidden' });
    expect(await resolveInRoot(root, 'file..txt')).toMatchObject({ ok: true });
  });
});

describe('resolveInRoot refuses escapes', () => {
  it.each(['../../etc/passwd', '..', 'sub/../../outside.txt', 'sub/../a.txt', '..\\outside.txt'])(
    'refuses ".." in %s',
    async (requested) => {
      expect(await refused(requested)).toMatch(/\.\./);
    },
  );

  it('refuses absolute paths outside the root', async () => {
    expect(await refused('/etc/passwd')).toMatch(/outside the root/);
    expect(await refused(path.join(base, 'outside.txt'))).toMatch(/outside the root/);
  });

  it('refuses a sibling folder whose name starts with the root name', async () => {
    expect(await refused(path.join(base, 'root-evil', 'secret.txt'))).toMatch(/outside the root/);
    expect(await refused(`${root}-evil/secret.txt`)).toMatch(/outside the root/);
  });

  it('refuses symbolic links that point outside, as files, folders or ancestors', async () => {
    expect(await refused('link-out')).toMatch(/outside the root/);
    expect(await refused('dir-out/secret.txt')).toMatch(/outside the root/);
    expect(await refused('dir-out/new-file.txt')).toMatch(/outside the root/);
    expect(await refused('sub/up/outside.txt')).toMatch(/outside the root/);
  });

  it('refuses writes through a dangling symbolic link (outside or not)', async () => {
    expect(await refused('dangling-out')).toMatch(/dangling/);
    expect(await refused('dangling-in')).toMatch(/dangling/);
    expect(await refused('dangling-out/child.txt')).toMatch(/dangling/);
  });

  it('refuses NUL bytes and empty paths', async () => {
    expect(await refused('a.txt\0.png')).toMatch(/NUL/);
    expect(await refused('')).toMatch(/empty/);
  });

  it.each([
    '\uff0e\uff0e/\uff0e\uff0e/etc/passwd',
    '..\u2215..\u2215etc\u2215passwd',
    '\u2024\u2024/outside.txt',
    '..\uff0foutside.txt',
    '..\u2044outside.txt',
    '..\uff3coutside.txt',
  ])('refuses unicode look-alikes of dots and slashes: %s', async (requested) => {
    expect(await refused(requested)).toMatch(/look-alike/);
  });

  it('reports a missing root clearly', async () => {
    const result = await resolveInRoot(path.join(base, 'nope'), 'a.txt');
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/does not exist/) });
  });
});

describe('isInside', () => {
  it('compares by path segments, not string prefixes', () => {
    expect(isInside('/data', '/data')).toBe(true);
    expect(isInside('/data', '/data/x/y')).toBe(true);
    expect(isInside('/data', '/data-evil/x')).toBe(false);
    expect(isInside('/data', '/')).toBe(false);
    expect(isInside('/data', '/data/..x')).toBe(true);
  });
});

describe('resolveInRoot purposes', () => {
  it('entry: resolves the folder but not the last segment, so a link is the link itself', async () => {
    expect(await resolveInRoot(root, 'link-out', { purpose: 'entry' })).toMatchObject({
      ok: true,
      path: path.join(await realpath(root), 'link-out'),
      exists: true,
    });
    expect(await resolveInRoot(root, 'dir-out/secret.txt', { purpose: 'entry' })).toMatchObject({ ok: false });
    expect(await resolveInRoot(root, 'sub/up', { purpose: 'entry' })).toMatchObject({ ok: true, relative: 'sub/up' });
  });

  it.each(['.', './', 'sub/..', 'ROOT', 'ROOT/', 'ROOT/.'])(
    'entry and write refuse the root itself (%s), read accepts it',
    async (template) => {
      const requested = template.replace('ROOT', root);
      for (const purpose of ['entry', 'write'] as const) {
        const result = await resolveInRoot(root, requested, { purpose });
        expect(result.ok).toBe(false);
      }
      if (!requested.includes('..')) expect(await resolveInRoot(root, requested)).toMatchObject({ ok: true });
    },
  );

  it('entry refuses ".." as the last segment, which a folder-only check let through', async () => {
    for (const requested of ['..', './..', `${root}/..`, 'sub/../..']) {
      expect(await resolveInRoot(root, requested, { purpose: 'entry' })).toMatchObject({ ok: false });
    }
  });
});

describe('confirmFolderUnchanged', () => {
  it('refuses when the folder was swapped for a link after it was resolved', async () => {
    await mkdir(path.join(root, 'swap'));
    const resolved = await resolveInRoot(root, 'swap/file.txt', { purpose: 'write' });
    if (!resolved.ok) throw new Error(resolved.reason);
    await confirmFolderUnchanged(resolved, 'swap/file.txt');
    await rm(path.join(root, 'swap'), { recursive: true });
    await symlink(path.join(base, 'root-evil'), path.join(root, 'swap'));
    await expect(confirmFolderUnchanged(resolved, 'swap/file.txt')).rejects.toThrow(/changed while/);
  });
});
