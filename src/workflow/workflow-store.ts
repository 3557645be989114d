import type {
  RunLease,
  StepRecord,
  WorkflowEventRecord,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowStore,
} from './workflow-types.js';

function matches(run: WorkflowRunRecord, query: WorkflowRunQuery): boolean {
  return (
    (query.workflowId === undefined || run.workflowId === query.workflowId) &&
    (query.status === undefined || run.status === query.status) &&
    (query.owner === undefined || run.owner === query.owner) &&
    (query.before === undefined || run.createdAt < query.before)
  );
}

/** Whether `current` leaves the run free for `lease`: none, its own, expired, or the dead holder `expected`. */
export function leaseFree(current: RunLease | undefined, lease: RunLease, expected?: RunLease): boolean {
  if (!current || current.holder === lease.holder || current.until < Date.now()) return true;
  return expected !== undefined && current.holder === expected.holder && current.until === expected.until;
}

/**
 * Keeps runs in memory: for tests and one-shot scripts, gone with the process. Step outputs are kept
 * by reference, as a step returned them (a step that mutates its input after it was checkpointed
 * changes the checkpoint too; the SQLite store serialises instead).
 */
export function memoryWorkflowStore(): WorkflowStore {
  const runs = new Map<string, WorkflowRunRecord>();
  const steps = new Map<string, Record<string, StepRecord>>();
  const events = new Map<string, WorkflowEventRecord[]>();
  const leases = new Map<string, RunLease>();
  return {
    local: true,
    createRun(run, initial = {}) {
      if (runs.has(run.id)) throw new Error(`Workflow run "${run.id}" already exists.`);
      // Copies made with Object.assign, not a spread: on Node 20 a spread copy that later gains a
      // property (a run's output, a step's path) takes a slow path, ~4 µs per added property.
      runs.set(run.id, Object.assign({}, run));
      steps.set(run.id, Object.assign({}, initial));
    },
    async getRun(runId) {
      const run = runs.get(runId);
      return run && Object.assign({}, run);
    },
    updateRun(runId, patch) {
      // The stored record is this store's own copy (getRun hands out copies): patched in place.
      const run = runs.get(runId);
      if (run) Object.assign(run, patch).updatedAt = Date.now();
    },
    async loadSteps(runId) {
      return Object.assign({}, steps.get(runId));
    },
    async loadStepsAt(runId, paths) {
      const all = steps.get(runId) ?? {};
      const out: Record<string, StepRecord> = {};
      for (const path of paths) if (all[path]) out[path] = all[path];
      return out;
    },
    saveStep(runId, path, record) {
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
    async listRuns(query) {
      return [...runs.values()]
        .filter((r) => matches(r, query))
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, query.limit)
        .map((r) => Object.assign({}, r));
    },
    async appendEvents(runId, more) {
      const log = events.get(runId) ?? [];
      events.set(runId, log);
      for (const event of more) log.push({ seq: log.length + 1, event });
    },
    async readEvents(runId, afterSeq, limit = 1000) {
      return (events.get(runId) ?? []).slice(afterSeq, afterSeq + limit);
    },
    claimRun(runId, lease, expected) {
      if (!leaseFree(leases.get(runId), lease, expected)) return false;
      leases.set(runId, { ...lease });
      return true;
    },
    async leaseOf(runId) {
      const lease = leases.get(runId);
      return lease && { ...lease };
    },
    releaseRun(runId, holder) {
      if (leases.get(runId)?.holder === holder) leases.delete(runId);
    },
  };
}
