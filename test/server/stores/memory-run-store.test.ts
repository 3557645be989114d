import { memoryRunStore } from '../../../src/server/index.js';
import { runStoreContract } from './run-store.contract.js';
import { runStoreRetentionContract } from './run-store-retention.contract.js';

const open = async () => {
  const store = memoryRunStore();
  await store.init();
  return { store, cleanup: () => store.close() };
};

runStoreContract('memoryRunStore', open);
runStoreRetentionContract('memoryRunStore', open);
