import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { exact, memoryExperimentStore, runExperiment, SqliteExperimentStore } from '../../../src/eval/index.js';

const data = Array.from({ length: 300 }, (_, i) => ({ input: `q${i}`, expected: 'a' }));

describe('trials committed in batches', () => {
  it('reports a trial finished only once another connection can read it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'commits-')), 'thinkflow.db');
    const store = new SqliteExperimentStore({ file });
    const reader = new Database(file, { readonly: true });
    // Trials are committed as chunk rows, each a JSON document holding how many trials it has in `n`.
    const count = reader
      .prepare("SELECT coalesce(sum(trials ->> '$.n'), 0) FROM eval_trial_chunks WHERE experiment_id = ?")
      .pluck();
    const seen: [number, number][] = [];
    const experiment = await runExperiment({
      name: 'commits',
      id: 'commits',
      data,
      task: () => 'a',
      scorers: [exact()],
      store,
      concurrency: 1,
      onProgress: (p) => {
        if (p.done % 25 === 0) seen.push([p.done, count.get('commits') as number]);
      },
    });
    expect(seen.length).toBe(12);
    for (const [done, stored] of seen) expect(stored).toBeGreaterThanOrEqual(done);
    expect(experiment.summary.trials).toBe(300);
    expect(count.get('commits')).toBe(300);
    reader.close();
    await store.close();
  });

  it('ends the experiment when a save fails or onProgress throws', async () => {
    const failing = memoryExperimentStore();
    let saves = 0;
    const save = failing.saveTrial.bind(failing);
    failing.saveTrial = async (id, trial) => {
      if (++saves === 5) throw new Error('disk full');
      return save(id, trial);
    };
    await expect(
      runExperiment({ name: 'f', data, task: () => 'a', scorers: [exact()], store: failing }),
    ).rejects.toThrow('disk full');
    await expect(
      runExperiment({
        name: 'p',
        data,
        task: () => 'a',
        scorers: [exact()],
        onProgress: (p) => {
          if (p.done === 3) throw new Error('progress broke');
        },
      }),
    ).rejects.toThrow('progress broke');
  });
});
