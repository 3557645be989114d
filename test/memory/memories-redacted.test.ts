import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteMemoryStore } from '../../src/memory/node.js';

const KEY = 'sk-proj-Ab12Cd34Ef56Gh78Ij90KlMn';

describe('long-term memories', () => {
  it('are stored and found with credentials redacted, in no byte of the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thinkflow-memories-'));
    try {
      const store = new SqliteMemoryStore({ dataDir: dir });
      await store.add({
        kind: 'episode',
        text: `Deployed the billing service with key ${KEY}`,
        metadata: { password: 'hunter2-correct-horse' },
      });
      const [hit] = await store.search('billing service');
      expect(hit.memory.text).toBe('Deployed the billing service with key [redacted]');
      expect(hit.memory.metadata).toEqual({ password: '[redacted]' });
      const bytes = ['thinkflow.db', 'thinkflow.db-wal']
        .map((name) => join(dir, name))
        .filter(existsSync)
        .map((file) => readFileSync(file).toString('latin1'))
        .join('');
      expect(bytes).toContain('billing');
      expect(bytes).not.toContain(KEY);
      expect(bytes).not.toContain('hunter2-correct-horse');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
