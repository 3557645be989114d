import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runsVacuum } from '../../../src/cli/runs-command.js';
import type { CommandIo } from '../../../src/cli/trace-command.js';
import { SqliteRunStore } from '../../../src/server/index.js';
import { tempDir } from '../server-fixtures.js';

const RUNS = 300;

/** A store file as versions before incremental vacuum made it: 4 KB pages, no auto-vacuum, one event per row. */
function oldFile(path: string): void {
  const db = new Database(path);
  db.pragma('page_size = 4096');
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE runs (id TEXT PRIMARY KEY, agent TEXT NOT NULL, input TEXT NOT NULL, history TEXT, status TEXT NOT NULL,
      source TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, result TEXT, questions TEXT, cancel_requested INTEGER);
    CREATE TABLE run_events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL, PRIMARY KEY (run_id, seq));
    CREATE TABLE run_checkpoints (run_id TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at INTEGER NOT NULL);`);
  const insertRun = db.prepare(`INSERT INTO runs VALUES (?, 'a', ?, NULL, 'done', 'api', ?, ?, NULL, NULL, 0)`);
  const insertEvent = db.prepare('INSERT INTO run_events VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < RUNS; i++) {
      const id = `old-${String(i).padStart(4, '0')}`;
      insertRun.run(id, `question ${i} ${'x'.repeat(2000)}`, i, i);
      for (let seq = 1; seq <= 3; seq++) {
        insertEvent.run(
          id,
          seq,
          JSON.stringify({ type: 'observation', runId: id, ts: i, step: 0, text: `${seq} ${'y'.repeat(1500)}` }),
        );
      }
    }
  })();
  db.close();
}

const silent = (): CommandIo & { out: () => string } => {
  let out = '';
  const stdout = (text: string) => {
    out += text;
  };
  return { stdout, stderr: () => {}, color: false, out: () => out };
};

describe('a SQLite run store made before incremental vacuum', () => {
  it('is converted when opened, reads as before, and gives pruned space back', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    oldFile(path);
    const store = new SqliteRunStore({ path });
    expect(store.vacuumAtOpen).toBe('converted');
    const events = await store.readEvents('old-0007', 0);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(events[2].event).toMatchObject({ type: 'observation', runId: 'old-0007', text: `3 ${'y'.repeat(1500)}` });
    expect((await store.getRun('old-0007'))?.input).toBe(`question 7 ${'x'.repeat(2000)}`);
    const before = (await store.stats()).bytes;
    expect((await store.stats()).incrementalVacuum).toBe(true);
    expect((await store.pruneRuns({ olderThan: RUNS, limit: RUNS })).runs).toBe(RUNS);
    // Given back at once, not only kept free for reuse.
    expect((await store.stats()).bytes).toBeLessThan(before / 4);
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    db.close();
    // Opening again has nothing left to do.
    const again = new SqliteRunStore({ path });
    expect(again.vacuumAtOpen).toBe('incremental');
    await again.close();
    dir.cleanup();
  });

  it('is left for `thinkflow runs vacuum` when too large to convert at open', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    oldFile(path);
    expect(statSync(path).size).toBeGreaterThan(100_000);
    const store = new SqliteRunStore({ path, vacuumAtOpenMaxBytes: 100_000 });
    expect(store.vacuumAtOpen).toBe('too_large');
    expect((await store.stats()).incrementalVacuum).toBe(false);
    const { bytesBefore, bytesAfter } = await store.vacuum();
    expect(bytesAfter).toBeLessThanOrEqual(bytesBefore);
    expect((await store.stats()).incrementalVacuum).toBe(true);
    await store.close();

    const out = silent();
    await runsVacuum({ dataDir: dir.path }, out);
    expect(out.out()).toMatch(/^size [\d.]+ MB → [\d.]+ MB in [\d.]+ s\n$/);
    dir.cleanup();
  });
});
