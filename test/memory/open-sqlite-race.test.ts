import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteCacheStore } from '../../src/cache/node.js';
import { SqliteMemoryStore, SqliteSessionStore } from '../../src/memory/node.js';
import { SqliteRunStore } from '../../src/server/index.js';

const root = mkdtempSync(join(tmpdir(), 'thinkflow-open-race-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Another connection (a thread, so it runs while this one blocks) creates `file` in rollback-journal
 * mode and holds its write lock for `holdMs`. SQLite answers a WAL switch made meanwhile with
 * SQLITE_BUSY at once, without calling the busy handler: the race two processes opening one new file hit.
 */
async function holdWriteLock(file: string, holdMs: number): Promise<Worker> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.exec('CREATE TABLE IF NOT EXISTS held (x)');
     db.exec('BEGIN IMMEDIATE');
     db.prepare('INSERT INTO held VALUES (1)').run();
     parentPort.postMessage('locked');
     setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, workerData.holdMs);`,
    { eval: true, workerData: { file, holdMs, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return worker;
}

const stores: [string, (dir: string) => Promise<void>][] = [
  ['sessions', (dir) => new SqliteSessionStore({ dataDir: dir }).list().then(() => {})],
  ['memory', (dir) => new SqliteMemoryStore({ dataDir: dir }).list().then(() => {})],
  ['runs', async (dir) => new SqliteRunStore({ path: join(dir, 'thinkflow.db') }).close()],
  ['cache', async (dir) => new SqliteCacheStore(join(dir, 'thinkflow.db')).close()],
];

describe('opening a SQLite file another connection is switching or writing', () => {
  it.each(stores)('the %s store waits for the lock instead of failing', async (_name, open) => {
    const dir = mkdtempSync(join(root, 'held-'));
    const worker = await holdWriteLock(join(dir, 'thinkflow.db'), 200);
    try {
      await expect(open(dir)).resolves.toBeUndefined();
    } finally {
      await worker.terminate();
    }
  });
});

/** A child's stdout as a queue of lines, so each round reads the answer to its own "go". */
function lines(child: ChildProcessWithoutNullStreams): () => Promise<string> {
  const buffered: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else buffered.push(line);
  });
  child.on('exit', (code) => {
    for (const next of waiting.splice(0)) next(`exited ${code}`);
  });
  return () => {
    const line = buffered.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
  };
}

const PROCESSES = 8;
const ROUNDS = 15;

describe('opening one new SQLite file from many processes at once', () => {
  it(`succeeds for every store, ${PROCESSES} processes × ${ROUNDS} fresh files`, { timeout: 180_000 }, async () => {
    const script = join(import.meta.dirname, '..', 'fixtures', 'memory', 'open-stores.ts');
    const children = Array.from({ length: PROCESSES }, (_, i) =>
      spawn(process.execPath, ['--import', 'tsx', script, String(i)], { stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    const stderr = children.map(() => '');
    children.forEach((child, i) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr[i] += d.toString();
      });
    });
    const next = children.map(lines);
    try {
      expect(await Promise.all(next.map((read) => read()))).toEqual(children.map(() => 'ready'));
      for (let round = 0; round < ROUNDS; round++) {
        // Every child starts within a few ms of this instant, staggered so opens overlap others' WAL switch and writes.
        const at = Date.now() + 30;
        for (const child of children) child.stdin.write(`go ${join(root, `round-${round}`)} ${at}\n`);
        const answers = await Promise.all(next.map((read) => read()));
        expect({ round, answers, stderr: stderr.filter(Boolean) }).toEqual({
          round,
          answers: children.map(() => 'opened'),
          stderr: [],
        });
      }
    } finally {
      for (const child of children) child.kill();
    }
  });
});
