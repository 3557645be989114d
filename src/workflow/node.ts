/** workflow/'s Node face: runs and step checkpoints kept in SQLite. */
export { sqliteWorkflowStore } from './sqlite-workflow-store.js';
