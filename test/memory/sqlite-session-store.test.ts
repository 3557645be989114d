import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentText, type Message } from '../../src/core/index.js';
import { databasePath, SqliteSessionStore } from '../../src/memory/node.js';
import { runTogether } from './run-children.js';
import { runSessionStoreContract } from './session-store.contract.js';

let dir: string;
const stores: SqliteSessionStore[] = [];
const open = (options: ConstructorParameters<typeof SqliteSessionStore>[0] = { dataDir: dir }) => {
  const store = new SqliteSessionStore(options);
  stores.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'thinkflow-sessions-'));
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const turn: Message[] = [
  { role: 'user', content: 'What is 2+2?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"e":"2+2"}' }] },
  { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '4' },
  { role: 'assistant', content: 'It is 4.' },
];

runSessionStoreContract({
  name: 'SqliteSessionStore',
  create: async () => open({ file: join(mkdtempSync(join(tmpdir(), 'thinkflow-sessions-')), 'thinkflow.db') }),
});

describe('SqliteSessionStore', () => {
  it('appends, loads, lists and resets sessions under the data dir', async () => {
    const store = open();
    expect(await store.load('s1')).toEqual([]);
    await store.append('s1', turn);
    await store.append('s1', [{ role: 'user', content: 'And 3+3?' }]);
    await store.append('s2', [{ role: 'user', content: 'hi' }]);
    expect(await store.load('s1')).toEqual([...turn, { role: 'user', content: 'And 3+3?' }]);
    const list = await store.list();
    expect(list.map((s) => [s.id, s.messages]).sort()).toEqual([
      ['s1', 5],
      ['s2', 1],
    ]);
    await store.reset('s1');
    expect(await store.load('s1')).toEqual([]);
    expect((await store.list()).map((s) => s.id)).toEqual(['s2']);
    // Persisted: a second store on the same file sees it.
    expect(await open().load('s2')).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('defaults to ~/.thinkflow/thinkflow.db', () => {
    expect(databasePath()).toMatch(/\.thinkflow[/\\]thinkflow\.db$/);
    expect(databasePath({ dataDir: dir })).toBe(join(dir, 'thinkflow.db'));
  });

  it('rejects invalid messages on append and unreadable rows on load', async () => {
    const store = open();
    await expect(store.append('s', [{ role: 'robot', content: 'x' } as unknown as Message])).rejects.toThrow(
      /not a valid Message/,
    );
    await store.append('s', [{ role: 'user', content: 'ok' }]);
    const raw = new Database(join(dir, 'thinkflow.db'));
    raw.prepare('UPDATE session_messages SET message = \'{"role":"nope"}\'').run();
    raw.close();
    await expect(store.load('s')).rejects.toMatchObject({
      name: 'StoreError',
      message: expect.stringMatching(/seq 1/),
    });
  });

  it('a corrupt file gives a StoreError naming the file and the fix, and is left byte for byte', async () => {
    const file = join(dir, 'thinkflow.db');
    const garbage = Buffer.from('this is not a sqlite database, it is a text file '.repeat(100));
    writeFileSync(file, garbage);
    const store = open();
    const error = await store.load('s').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StoreError', code: 'store' });
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/mv .*\.bak|--data-dir/);
    await expect(store.append('s', turn)).rejects.toMatchObject({ name: 'StoreError' });
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('a locked file gives a StoreError, and nothing is lost once the lock is gone', async () => {
    const store = open({ dataDir: dir, busyTimeoutMs: 50 });
    await store.append('s', [{ role: 'user', content: 'before' }]);
    const other = new Database(join(dir, 'thinkflow.db'));
    other.exec('BEGIN EXCLUSIVE');
    await expect(store.append('s', [{ role: 'user', content: 'during' }])).rejects.toMatchObject({
      name: 'StoreError',
      message: expect.stringMatching(/locked by another process/),
    });
    // WAL: reading still works while another process writes.
    expect(await store.load('s')).toHaveLength(1);
    other.exec('COMMIT');
    other.close();
    await store.append('s', [{ role: 'user', content: 'after' }]);
    expect((await store.load('s')).map((m) => m.content)).toEqual(['before', 'after']);
  });

  it('two processes appending to one session at once lose nothing', { timeout: 120_000 }, async () => {
    const file = join(dir, 'thinkflow.db');
    const script = join(import.meta.dirname, '..', 'fixtures', 'memory', 'append-session.ts');
    await runTogether(script, [
      [file, 'shared', '200', 'a', 'b'],
      [file, 'shared', '200', 'b', 'a'],
    ]);
    const messages = await open({ file }).load('shared');
    expect(messages).toHaveLength(400);
    const a = messages.filter((m) => contentText(m.content).startsWith('a ')).map((m) => m.content);
    expect(a).toEqual(Array.from({ length: 200 }, (_, i) => `a ${i}`));
    // The writes really interleaved: b's messages sit between a's.
    const firstB = messages.findIndex((m) => contentText(m.content).startsWith('b '));
    const lastA = messages.findLastIndex((m) => contentText(m.content).startsWith('a '));
    expect(firstB).toBeLessThan(lastA);
  });
});
