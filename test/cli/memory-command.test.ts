import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Memory, MemoryHit } from '../../src/memory/index.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-cli-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const memory = (...args: string[]) => runCli(['memory', ...args, '--data-dir', dir]);

describe('thinkflow memory (spawned CLI)', { timeout: 600_000 }, () => {
  it('adds, searches, lists and removes memories in the data dir', async () => {
    const added = await memory('add', 'The user prefers metric units', '--tags', 'user,units');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const id = added.stdout.trim();
    expect(id).toMatch(/^mem_[0-9a-f]{16}$/);
    const skill = await memory('add', '--kind', 'skill', '--json', 'Use the calculator for arithmetic');
    const stored = JSON.parse(skill.stdout) as Memory;
    expect(stored).toMatchObject({ kind: 'skill', text: 'Use the calculator for arithmetic', tags: [] });

    const search = await memory('search', 'which', 'units?', '--json');
    expect(search.code).toBe(0);
    const hits = JSON.parse(search.stdout) as MemoryHit[];
    expect(hits.map((h) => h.memory.id)).toEqual([id]);

    const tagged = await memory('list', '--kind', 'fact', '--tags', 'units');
    expect(tagged.stdout).toContain(id);
    expect(tagged.stdout).toContain('The user prefers metric units');
    expect(tagged.stdout).toContain('user, units');
    expect(tagged.stdout).not.toContain(stored.id);

    const rm = await memory('rm', id, 'mem_0000000000000000');
    expect(rm.stdout.trim()).toBe(`removed ${id}`);
    expect(rm.code).toBe(1);
    expect(rm.stderr).toContain('no memory with id mem_0000000000000000');
    const after = await memory('search', 'metric units calculator', '--json');
    expect((JSON.parse(after.stdout) as MemoryHit[]).map((h) => h.memory.id)).not.toContain(id);
  });

  it('adds one memory per line of a file, and lists them as JSON rows', async () => {
    const own = mkdtempSync(join(tmpdir(), 'thinkflow-cli-memory-file-'));
    try {
      const notes = join(own, 'notes.txt');
      writeFileSync(notes, 'Paris is in France\n\nTokyo is in Japan\n');
      const added = await runCli(['memory', 'add', '--file', notes, '--tags', 'geo', '--json', '--data-dir', own]);
      expect(added.code).toBe(0);
      // Not a terminal: no progress bar on stderr.
      expect(added.stderr).toBe('');
      expect((JSON.parse(added.stdout) as Memory[]).map((m) => m.text)).toEqual([
        'Paris is in France',
        'Tokyo is in Japan',
      ]);
      const listed = await runCli(['memory', 'list', '--json', '--data-dir', own]);
      expect((JSON.parse(listed.stdout) as Memory[]).map((m) => m.tags)).toEqual([['geo'], ['geo']]);
      const nothing = await runCli(['memory', 'add', '--json', '--data-dir', own]);
      expect(nothing.code).toBe(2);
      expect(JSON.parse(nothing.stderr).error.message).toMatch(/Nothing to remember/);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('rejects an unknown kind with the list of kinds', async () => {
    const result = await memory('add', '--kind', 'opinion', 'x');
    expect(result.code).toBe(2); // a usage error
    expect(result.stderr).toContain('--kind must be one of fact, episode, reflection, skill');
  });

  it('a corrupt database gives a clear error and is left as it was', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'thinkflow-cli-corrupt-'));
    const file = join(bad, 'thinkflow.db');
    writeFileSync(file, 'not a database '.repeat(500));
    const result = await runCli(['memory', 'list', '--data-dir', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(/mv .*\.bak/);
    expect(readFileSync(file, 'utf8')).toBe('not a database '.repeat(500));
    rmSync(bad, { recursive: true, force: true });
  });
});
