import { join } from 'node:path';
import { SqliteRunStore } from '../../../src/server/index.js';
import { tempDir } from '../server-fixtures.js';
import { runStoreContract } from './run-store.contract.js';

runStoreContract('SqliteRunStore', async () => {
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
});
