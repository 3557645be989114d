import { memoryMemoryStore, memorySessionStore } from '../../src/entries/memory.js';
import { runMemoryStoreContract } from './memory-store.contract.js';
import { runSessionStoreContract } from './session-store.contract.js';

runMemoryStoreContract({ name: 'memoryMemoryStore', create: async (options) => memoryMemoryStore(options) });
runSessionStoreContract({ name: 'memorySessionStore', create: async () => memorySessionStore() });
