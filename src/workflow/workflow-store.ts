import { openSqlite, type SqliteLocation } from '../memory/index.js';
import type { StepRecord, WorkflowRunRecord, WorkflowStore } from './workflow-types.js';

/**
 * Keeps runs in memory: for tests and one-shot scripts, gone with the process. Step outputs are kept
 * by reference, as a step returned them (a step that mutates its input after it was checkpointed
 * changes the checkpoint too; the SQLite store serialises instead).
 */
export function memoryWorkflowStore(): WorkflowStore {
  const runs = new Map<string, WorkflowRunRecord>();
  const steps = new Map<string, Record<string, StepRecord>>();
  return {
    async createRun(run, initial = {}) {
      if (runs.has(run.id)) throw new Error(`Workflow run "${run.id}" already exists.`);
      runs.set(run.id, { ...run });
      steps.set(run.id, { ...initial });
    },
    async getRun(runId) {
      const run = runs.get(runId);
      return run && { ...run };
    },
    async updateRun(runId, patch) {
      const run = runs.get(runId);
      if (run) runs.set(runId, { ...run, ...patch, updatedAt: Date.now() });
    },
    async loadSteps(runId) {
      return { ...steps.get(runId) };
    },
    async saveStep(runId, path, record) {
      const all = steps.get(runId);
      if (all) all[path] = record;
      else steps.set(runId, { [path]: record });
    },
    async deleteSteps(runId, paths) {
      const all = steps.get(runId);
      for (const path of paths) delete all?.[path];
    },
    async runIdsWithStatus(status) {
      return [...runs.values()].filter((r) => r.status === status).map((r) => r.id);
    },
  };
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS workflow_runs (
  id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL, definition_hash TEXT NOT NULL, status TEXT NOT NULL,
  record TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS workflow_runs_status ON workflow_runs (workflow_id, status);
CREATE TABLE IF NOT EXISTS workflow_steps (
  run_id TEXT NOT NULL, path TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (run_id, path)
) WITHOUT ROWID;
`;

/**
 * Keeps workflow runs and their step checkpoints in SQLite (the same `thinkflow.db` as the other
 * stores by default): each finished step is one commit, so a killed process resumes without re-running it.
 */
export function sqliteWorkflowStore(location: SqliteLocation = {}): WorkflowStore {
  const { db } = openSqlite(location);
  db.exec(SCHEMA);
  const insertRun = db.prepare(
    'INSERT INTO workflow_runs (id, workflow_id, definition_hash, status, record, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const selectRun = db.prepare('SELECT record FROM workflow_runs WHERE id = ?');
  const writeRun = db.prepare(
    'UPDATE workflow_runs SET status = ?, definition_hash = ?, record = ?, updated_at = ? WHERE id = ?',
  );
  const selectSteps = db.prepare('SELECT path, record FROM workflow_steps WHERE run_id = ?');
  const upsertStep = db.prepare(
    'INSERT INTO workflow_steps (run_id, path, record) VALUES (?, ?, ?) ON CONFLICT (run_id, path) DO UPDATE SET record = excluded.record',
  );
  const deleteStep = db.prepare('DELETE FROM workflow_steps WHERE run_id = ? AND path = ?');
  const selectByStatus = db.prepare('SELECT id FROM workflow_runs WHERE status = ?');
  const readRun = (runId: string): WorkflowRunRecord | undefined => {
    const row = selectRun.get(runId) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as WorkflowRunRecord) : undefined;
  };
  const create = db.transaction((run: WorkflowRunRecord, initial: Record<string, StepRecord>) => {
    insertRun.run(
      run.id,
      run.workflowId,
      run.definitionHash,
      run.status,
      JSON.stringify(run),
      run.createdAt,
      run.updatedAt,
    );
    for (const [path, record] of Object.entries(initial)) upsertStep.run(run.id, path, JSON.stringify(record));
  });
  return {
    async createRun(run, initial = {}) {
      create(run, initial);
    },
    async getRun(runId) {
      return readRun(runId);
    },
    async updateRun(runId, patch) {
      const run = readRun(runId);
      if (!run) return;
      const next = { ...run, ...patch, updatedAt: Date.now() };
      writeRun.run(next.status, next.definitionHash, JSON.stringify(next), next.updatedAt, runId);
    },
    async loadSteps(runId) {
      const out: Record<string, StepRecord> = {};
      for (const row of selectSteps.all(runId) as { path: string; record: string }[])
        out[row.path] = JSON.parse(row.record);
      return out;
    },
    async saveStep(runId, path, record) {
      upsertStep.run(runId, path, JSON.stringify(record));
    },
    async deleteSteps(runId, paths) {
      for (const path of paths) deleteStep.run(runId, path);
    },
    async runIdsWithStatus(status) {
      return (selectByStatus.all(status) as { id: string }[]).map((row) => row.id);
    },
    close() {
      db.close();
    },
  };
}
