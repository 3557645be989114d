export { type DbosAgent, type DbosAgentOptions, type DbosRunRequest, dbosAgent } from './dbos/dbos-agent.js';
export { dbosClient } from './dbos/dbos-client.js';
export type { EngineClient, EngineStart } from './engine-client.js';
export { type JournaledRunOptions, type PendingAnswer, runJournaled } from './journaled-agent.js';
export { type JournalRecord, type MemoryJournal, memoryJournal } from './memory-journal.js';
export type { EventMeta } from './replay-events.js';
export { type RestateAgentOptions, type RestateRunRequest, restateAgent } from './restate/restate-agent.js';
export { type RestateClientOptions, restateClient } from './restate/restate-client.js';
