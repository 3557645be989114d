export { type DbosAgent, type DbosAgentOptions, type DbosRunRequest, dbosAgent } from './dbos/dbos-agent.js';
export { type JournaledRunOptions, type PendingAnswer, runJournaled } from './journaled-agent.js';
export { type JournalRecord, type MemoryJournal, memoryJournal } from './memory-journal.js';
export type { EventMeta } from './replay-events.js';
export { type RestateAgentOptions, type RestateRunRequest, restateAgent } from './restate/restate-agent.js';
