import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteMemoryStore } from '../../src/memory/node.js';
import { runMemoryStoreContract } from './memory-store.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-memory-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runMemoryStoreContract({
  name: 'SqliteMemoryStore',
  create: async (options) => new SqliteMemoryStore({ file: join(dir, `memory-${n++}.db`), ...options }),
});
