import { PostgresRunStore } from '../../../src/server/index.js';
import { TEST_PG, uniqueName } from '../pg-fixtures.js';
import { runStoreContract } from './run-store.contract.js';

runStoreContract('PostgresRunStore', async () => {
  const store = new PostgresRunStore({ connectionString: TEST_PG, schema: uniqueName('tf_test') });
  await store.init();
  return {
    store,
    cleanup: async () => {
      await store.drop();
      await store.close();
    },
  };
});
