import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileTools } from '../../../../src/tools/builtins/files/file-tools.js';
import { pick, runTool } from '../run-tool.js';

let base: string;
let root: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'tf-files-'));
  root = path.join(base, 'root');
  await mkdir(path.join(root, 'docs'), { recursive: true });
  await writeFile(path.join(root, 'hello.txt'), 'hello world');
  await writeFile(path.join(root, 'docs', 'a.md'), '# A');
  await writeFile(path.join(base, 'outside.txt'), 'secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('fileTools', () => {
  it('is read-only unless allowWrite is set, and write tools need approval', () => {
    expect(fileTools({ root }).map((t) => t.name)).toEqual(['list_files', 'read_file']);
    const all = fileTools({ root, allowWrite: true });
    expect(all.map((t) => t.name)).toEqual(['list_files', 'read_file', 'write_file', 'move_file', 'delete_file']);
    for (const name of ['write_file', 'move_file', 'delete_file']) expect(pick(all, name).needsApproval).toBe(true);
    expect(pick(all, 'read_file').needsApproval).toBeFalsy();
  });

  it('lists a folder with sizes and folder markers', async () => {
    await symlink(path.join(base, 'outside.txt'), path.join(root, 'out-link'));
    const text = await runTool(pick(fileTools({ root }), 'list_files'), {});
    expect(text).toBe('docs/\nhello.txt  11 B\nout-link (symbolic link)');
    const deep = await runTool(pick(fileTools({ root }), 'list_files'), { recursive: true });
    expect(deep).toContain('docs/a.md  3 B');
  });

  it('reads a text file and refuses one outside the root', async () => {
    const read = pick(fileTools({ root }), 'read_file');
    expect(await runTool(read, { path: 'hello.txt' })).toBe('hello world');
    await expect(runTool(read, { path: '../outside.txt' })).rejects.toThrow(/\.\./);
    await expect(runTool(read, { path: path.join(base, 'outside.txt') })).rejects.toThrow(/outside the root/);
    await expect(runTool(read, { path: '../../etc/passwd' })).rejects.toThrow(/\.\./);
  });

  it('refuses a file over the read limit with its size, and reads a range of it', async () => {
    await writeFile(path.join(root, 'big.log'), 'x'.repeat(5000));
    const read = pick(fileTools({ root, maxReadBytes: 1024 }), 'read_file');
    await expect(runTool(read, { path: 'big.log' })).rejects.toThrow(
      /4\.9 KB \(5000 bytes\), over the 1 KB read limit/,
    );
    const part = await runTool(read, { path: 'big.log', offset: 100, length: 10 });
    expect(part).toBe('[bytes 100-110 of 5000]\nxxxxxxxxxx');
    const capped = (await runTool(read, { path: 'big.log', offset: 0, length: 4000 })) as string;
    expect(capped.length).toBeLessThan(1100);
  });

  it('refuses a FIFO instead of blocking on it', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe.txt')]);
    const read = pick(fileTools({ root }), 'read_file');
    await expect(runTool(read, { path: 'pipe.txt' })).rejects.toThrow(/not a regular file/);
  });

  it('moves a symbolic link itself, leaving its target alone', async () => {
    await symlink(path.join(root, 'hello.txt'), path.join(root, 'link.txt'));
    const move = pick(fileTools({ root, allowWrite: true }), 'move_file');
    expect(await runTool(move, { from: 'link.txt', to: 'docs/link.txt' })).toBe('Moved link.txt to docs/link.txt.');
    expect(await readFile(path.join(root, 'hello.txt'), 'utf8')).toBe('hello world');
    expect(await readFile(path.join(root, 'docs', 'link.txt'), 'utf8')).toBe('hello world');
  });

  it('refuses binary files and folders', async () => {
    await writeFile(path.join(root, 'bin.dat'), Buffer.from([1, 0, 2, 3]));
    const read = pick(fileTools({ root }), 'read_file');
    await expect(runTool(read, { path: 'bin.dat' })).rejects.toThrow(/binary/);
    await expect(runTool(read, { path: 'docs' })).rejects.toThrow(/folder/);
  });

  it('writes, appends and creates folders inside the root', async () => {
    const write = pick(fileTools({ root, allowWrite: true }), 'write_file');
    expect(await runTool(write, { path: 'out/new.txt', content: 'one' })).toBe('Wrote 3 B to out/new.txt.');
    await runTool(write, { path: 'out/new.txt', content: ' two', append: true });
    expect(await readFile(path.join(root, 'out', 'new.txt'), 'utf8')).toBe('one two');
  });

  it('refuses writes outside, through links out, and through dangling links', async () => {
    await symlink(path.join(base, 'planted.txt'), path.join(root, 'dangling'));
    await symlink(base, path.join(root, 'base-link'));
    const write = pick(fileTools({ root, allowWrite: true }), 'write_file');
    await expect(runTool(write, { path: '../escape.txt', content: 'x' })).rejects.toThrow(/\.\./);
    await expect(runTool(write, { path: 'dangling', content: 'x' })).rejects.toThrow(/dangling/);
    await expect(runTool(write, { path: 'base-link/escape.txt', content: 'x' })).rejects.toThrow(/outside/);
    await expect(runTool(write, { path: `${root}-evil/x.txt`, content: 'x' })).rejects.toThrow(/outside/);
    await expect(stat(path.join(base, 'planted.txt'))).rejects.toThrow();
    await expect(stat(path.join(base, 'escape.txt'))).rejects.toThrow();
    await expect(stat(`${root}-evil`)).rejects.toThrow();
  });

  it('moves inside the root, refusing to overwrite or to move out', async () => {
    const move = pick(fileTools({ root, allowWrite: true }), 'move_file');
    expect(await runTool(move, { from: 'hello.txt', to: 'docs/hello.txt' })).toBe('Moved hello.txt to docs/hello.txt.');
    await expect(runTool(move, { from: 'docs/hello.txt', to: 'docs/a.md' })).rejects.toThrow(/already exists/);
    await expect(runTool(move, { from: 'docs/a.md', to: '../a.md' })).rejects.toThrow(/\.\./);
    await expect(runTool(move, { from: '.', to: 'x' })).rejects.toThrow(/root folder/);
    expect(await readFile(path.join(root, 'docs', 'a.md'), 'utf8')).toBe('# A');
  });

  it('deletes files, folders only with recursive, and a link without touching its target', async () => {
    await symlink(path.join(base, 'outside.txt'), path.join(root, 'out-link'));
    const del = pick(fileTools({ root, allowWrite: true }), 'delete_file');
    await expect(runTool(del, { path: 'docs' })).rejects.toThrow(/recursive: true/);
    expect(await runTool(del, { path: 'docs', recursive: true })).toBe('Deleted docs.');
    expect(await runTool(del, { path: 'out-link' })).toBe('Deleted out-link.');
    expect(await readFile(path.join(base, 'outside.txt'), 'utf8')).toBe('secret');
    await expect(runTool(del, { path: '.', recursive: true })).rejects.toThrow(/root folder/);
    await expect(runTool(del, { path: '../outside.txt' })).rejects.toThrow(/\.\./);
    await expect(runTool(del, { path: 'missing.txt' })).rejects.toThrow(/does not exist/);
  });
});
