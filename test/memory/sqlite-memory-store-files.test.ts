import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteMemoryStore, SqliteSessionStore } from '../../src/memory/node.js';
import { runTogether } from './run-children.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'thinkflow-memory-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteMemoryStore on disk', () => {
  it('shares thinkflow.db with the sessions', async () => {
    const memory = new SqliteMemoryStore({ dataDir: dir });
    const sessions = new SqliteSessionStore({ dataDir: dir });
    await memory.add({ kind: 'fact', text: 'shared file' });
    await sessions.append('s', [{ role: 'user', content: 'hi' }]);
    const db = new Database(join(dir, 'thinkflow.db'), { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['memories', 'session_messages']));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await memory.close();
    await sessions.close();
  });

  it('a corrupt file rejects with a StoreError naming the file, and stays untouched', async () => {
    const file = join(dir, 'thinkflow.db');
    const garbage = Buffer.alloc(8192, 7);
    writeFileSync(file, garbage);
    const store = new SqliteMemoryStore({ dataDir: dir });
    await expect(store.search('anything')).rejects.toMatchObject({
      name: 'StoreError',
      message: expect.stringContaining(file),
    });
    await expect(store.add({ kind: 'fact', text: 'x' })).rejects.toMatchObject({ name: 'StoreError' });
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('searches while another connection holds the write lock (WAL: readers never wait)', async () => {
    const store = new SqliteMemoryStore({ dataDir: dir, busyTimeoutMs: 50 });
    await store.add({ kind: 'fact', text: 'the cache key includes the model id' });
    const writer = new Database(join(dir, 'thinkflow.db'));
    writer.exec('BEGIN IMMEDIATE');
    writer
      .prepare(
        "INSERT INTO memories (id, kind, text, created_at, updated_at) VALUES ('mem_x', 'fact', 'pending', 1, 1)",
      )
      .run();
    expect((await store.search('cache key', { k: 1 }))[0].memory.text).toContain('cache key');
    await expect(store.add({ kind: 'fact', text: 'blocked' })).rejects.toMatchObject({
      message: expect.stringMatching(/locked by another process/),
    });
    writer.exec('ROLLBACK');
    writer.close();
    await store.add({ kind: 'fact', text: 'after the lock' });
    expect(await store.list()).toHaveLength(2);
    await store.close();
  });

  it('two processes adding memories at once lose nothing', { timeout: 120_000 }, async () => {
    const file = join(dir, 'thinkflow.db');
    const script = join(import.meta.dirname, '..', 'fixtures', 'memory', 'add-memories.ts');
    await runTogether(script, [
      [file, '150', 'alpha'],
      [file, '150', 'beta'],
    ]);
    const store = new SqliteMemoryStore({ file });
    expect(await store.list({ limit: 1000 })).toHaveLength(300);
    expect(await store.list({ tags: ['beta'], limit: 1000 })).toHaveLength(150);
    const hits = await store.search('writer alpha fact number 149', { k: 1 });
    expect(hits[0].memory.text).toBe('writer alpha fact number 149');
    await store.close();
  });
});
