import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../../src/agent/index.js';
import type { AgentEvent, Step } from '../../../src/core/index.js';
import { emptyStats } from '../../../src/core/index.js';
import { SqliteRunStore } from '../../../src/server/index.js';
import { tempDir } from '../server-fixtures.js';
import { runStoreContract } from './run-store.contract.js';
import { runStoreRetentionContract } from './run-store-retention.contract.js';

async function openTempStore() {
  const dir = tempDir();
  const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
  await store.init();
  return {
    store,
    cleanup: async () => {
      await store.close();
      dir.cleanup();
    },
  };
}

runStoreContract('SqliteRunStore', openTempStore);
runStoreRetentionContract('SqliteRunStore', openTempStore);

function step(index: number): Step {
  return { index, kind: 'final', raw: `reply ${index}`, toolCalls: [], answer: `answer ${index}` };
}

function checkpoint(steps: Step[], extra: Partial<Checkpoint> = {}): Checkpoint {
  return {
    runId: 'r',
    input: 'go',
    steps,
    usage: { promptTokens: 0, completionTokens: 0, llmCalls: steps.length },
    stats: emptyStats(),
    ...extra,
  };
}

function stepStart(seq: number): AgentEvent {
  return { type: 'step_start', runId: 'r', ts: 1, step: seq };
}

describe('SqliteRunStore', () => {
  it('resolves a checkpoint only once it is committed, so another connection (a restarted process) reads it', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const store = new SqliteRunStore({ path });
    const other = new Database(path, { readonly: true });
    const read = () => other.prepare('SELECT checkpoint FROM run_checkpoints WHERE run_id = ?').get('r');
    const saved = store.saveCheckpoint(checkpoint([step(0)]));
    expect(read()).toBeUndefined();
    await saved;
    expect(read()).toBeDefined();
    expect(other.prepare('SELECT idx FROM run_steps WHERE run_id = ?').all('r')).toEqual([{ idx: 0 }]);
    other.close();
    await store.close();
    dir.cleanup();
  });

  it('keeps each step once and restores the whole checkpoint after a reopen', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const first = new SqliteRunStore({ path });
    const steps = [step(0)];
    await first.saveCheckpoint(checkpoint(steps));
    steps.push(step(1));
    const pending = { index: 2, raw: 'r', calls: [], done: [] };
    await first.saveCheckpoint(checkpoint(steps, { pending }));
    await first.close();

    const second = new SqliteRunStore({ path });
    const loaded = await second.loadCheckpoint('r');
    expect(loaded).toEqual(checkpoint([step(0), step(1)], { pending }));
    // Resumed with fewer steps than stored: the stored count wins, later rows are rewritten.
    await second.saveCheckpoint(checkpoint([step(0)]));
    expect((await second.loadCheckpoint('r'))?.steps).toEqual([step(0)]);
    await second.saveCheckpoint(checkpoint([step(0), { ...step(1), raw: 'again' }]));
    await second.close();

    const raw = new Database(path);
    expect(raw.prepare('SELECT COUNT(*) AS n FROM run_steps').get()).toEqual({ n: 2 });
    raw.close();
    const third = new SqliteRunStore({ path });
    expect((await third.loadCheckpoint('r'))?.steps[1].raw).toBe('again');
    await third.close();
    dir.cleanup();
  });

  it('reads events logged in separate commits and with gaps, within the limit', async () => {
    const dir = tempDir();
    const store = new SqliteRunStore({ path: join(dir.path, 'runs.db') });
    for (const seq of [1, 2, 3]) void store.appendEvent('r', seq, stepStart(seq));
    await store.appendEvent('r', 5, stepStart(5));
    await store.appendEvent('r', 6, stepStart(6));
    expect((await store.readEvents('r', 0)).map((e) => e.seq)).toEqual([1, 2, 3, 5, 6]);
    expect((await store.readEvents('r', 2, 2)).map((e) => e.event)).toEqual([stepStart(3), stepStart(5)]);
    expect(await store.lastSeq('r')).toBe(6);
    await store.close();
    dir.cleanup();
  });

  it('opens a file written one event per row with inline checkpoint steps', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'runs.db');
    const old = new Database(path);
    old.exec(`
      CREATE TABLE run_events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL);
      CREATE UNIQUE INDEX run_events_seq ON run_events (run_id, seq);
      CREATE TABLE run_checkpoints (run_id TEXT PRIMARY KEY, checkpoint TEXT NOT NULL, updated_at INTEGER NOT NULL);`);
    const insert = old.prepare('INSERT INTO run_events VALUES (?, ?, ?)');
    for (const seq of [1, 2]) insert.run('r', seq, JSON.stringify(stepStart(seq)));
    old.prepare('INSERT INTO run_checkpoints VALUES (?, ?, ?)').run('r', JSON.stringify(checkpoint([step(0)])), 1);
    old.close();

    const store = new SqliteRunStore({ path });
    expect(await store.readEvents('r', 0)).toEqual([
      { seq: 1, event: stepStart(1) },
      { seq: 2, event: stepStart(2) },
    ]);
    expect(await store.loadCheckpoint('r')).toEqual(checkpoint([step(0)]));
    await store.saveCheckpoint(checkpoint([step(0), step(1)]));
    await store.close();
    const reopened = new SqliteRunStore({ path });
    expect((await reopened.loadCheckpoint('r'))?.steps).toEqual([step(0), step(1)]);
    await reopened.close();
    dir.cleanup();
  });
});
