import { type AgentEvent, errorMessage } from '../../core/index.js';
import {
  DEFAULT_LEASE_MS,
  postgresWorkflowStore,
  type StepDispatch,
  type StepRecord,
  type SuspendedStep,
  visibleSteps,
  type Workflow,
  WorkflowRequestError,
  type WorkflowResult,
  type WorkflowRunQuery,
  type WorkflowRunRecord,
  type WorkflowStore,
} from '../../workflow/index.js';
import { sqliteWorkflowStore } from '../../workflow/node.js';
import type { IdempotencyRequest, RunStore, StoredEvent } from '../records/index.js';
import { onceForKey } from '../runs/index.js';
import { createWorkflowEventLog, type WorkflowEventLog } from './workflow-event-log.js';

/** A workflow run as the HTTP API shows it: the stored record with its visible steps and what it waits for. */
export interface WorkflowRunView extends WorkflowRunRecord {
  /** The config name it was started under (`workflows: { name: workflow }`). */
  workflow: string;
  steps: Record<string, StepRecord>;
  suspended: SuspendedStep[];
}

/** A run as a list shows it: the stored record and the config name it runs under. */
export interface WorkflowRunSummary extends WorkflowRunRecord {
  workflow: string;
}

/** Who asks, and with which Idempotency-Key, for a run to start (or be forked). */
export interface WorkflowStartContext {
  owner?: string;
  idempotency?: IdempotencyRequest;
}

/** The outcome of a start or a fork: the run, or why nothing started. */
export type WorkflowStartResult =
  | { ok: true; run: WorkflowRunView; replayed?: boolean }
  | { ok: false; reason: 'unknown_workflow' }
  | { ok: false; reason: 'idempotency_mismatch'; runId: string }
  | { ok: false; reason: 'request'; error: WorkflowRequestError };

/** Options of `workflowRuns`. */
export interface WorkflowRunsOptions {
  /** The config's `workflows`, by name. */
  workflows: Record<string, Workflow>;
  /** Where the runs and their checkpoints live (`sqliteWorkflowStore` in the data dir by default in serve). */
  store: WorkflowStore;
  /** The run store whose Idempotency-Key claims the workflow routes share with the agent routes. */
  claims: Pick<RunStore, 'claimIdempotencyKey' | 'releaseIdempotencyKey'>;
  /** Gets each workflow event (`workflow_start`, `step_start`, ...), as the run emits it. */
  onEvent?: (event: AgentEvent) => void;
  /** Called with a run that failed outside its own error handling (a store outage). */
  onError?: (error: unknown) => void;
  /** Hours an Idempotency-Key holds its run. Default 24. */
  keyHours?: number;
  /** Close `store` with the service. */
  ownStore?: boolean;
  /**
   * How often to look for runs left `running` whose lease expired (their process died) and resume them
   * here, besides at start-up. Default 30000 ms; 0 turns it off.
   */
  recoveryIntervalMs?: number;
  /** Queue mode (`serve --queue`): each run's leaf steps run on `thinkflow worker` processes (`queueStepDispatch`). */
  dispatch?: StepDispatch;
}

/** What `thinkflow serve` opens its workflow runs with. */
export interface OpenWorkflowRunsOptions extends Pick<WorkflowRunsOptions, 'claims' | 'onError' | 'dispatch'> {
  workflows?: Record<string, Workflow>;
  /** `postgres://…`: the workflow store goes there (schema `pgSchema`, default `thinkflow`). */
  pg?: string;
  pgSchema?: string;
  /** Else SQLite in this data dir (`thinkflow.db`, where `thinkflow workflow run` keeps its runs too). */
  dataDir: string;
}

/** The workflow runs of a served config, or undefined when it declares none. */
export function openWorkflowRuns(options: OpenWorkflowRunsOptions): WorkflowRuns | undefined {
  const { workflows } = options;
  if (!workflows || Object.keys(workflows).length === 0) return undefined;
  const store = options.pg
    ? postgresWorkflowStore({ connectionString: options.pg, schema: options.pgSchema ?? 'thinkflow' })
    : sqliteWorkflowStore({ dataDir: options.dataDir });
  return workflowRuns({
    workflows,
    store,
    claims: options.claims,
    onError: options.onError,
    dispatch: options.dispatch,
    ownStore: true,
  });
}

/** The workflow runs of a server: started, resumed and forked in this process, kept in the workflow store. */
export interface WorkflowRuns {
  names(): string[];
  /** The workflow served under `name` (its key in the config's `workflows`). */
  definition(name: string): Workflow | undefined;
  start(name: string, input: unknown, context: WorkflowStartContext): Promise<WorkflowStartResult>;
  get(id: string): Promise<WorkflowRunView | undefined>;
  /**
   * Runs newest first, as stored (no steps read), with the config name they run under; `workflow` is that
   * name. Undefined when the store cannot list (a custom one without `listRuns`).
   */
  list(query: Omit<WorkflowRunQuery, 'workflowId'> & { workflow?: string }): Promise<WorkflowRunSummary[] | undefined>;
  /** The stored status alone (no steps read). */
  status(id: string): Promise<WorkflowRunRecord['status'] | undefined>;
  /** Continues a suspended run; resolves once the request is accepted (throws `WorkflowRequestError` if not). */
  resume(id: string, request: { step?: string; event?: string; payload?: unknown }): Promise<WorkflowRunView>;
  fork(
    id: string,
    request: { fromStep: string; input?: unknown },
    context: WorkflowStartContext,
  ): Promise<WorkflowStartResult>;
  /**
   * Cancels a running or suspended run (throws `WorkflowRequestError` for an unknown or ended one). One
   * this process carries has stopped when this resolves; one another process carries stops at its next
   * lease renewal.
   */
  cancel(id: string): Promise<WorkflowRunView>;
  /** Resolves when the run has ended or suspended (at once if it is not running in this process). */
  wait(id: string): Promise<WorkflowRunView | undefined>;
  /** True while the run executes in this process. */
  running(id: string): boolean;
  /**
   * The run's events after `afterSeq`, as the store keeps them (every process's: the one that started it,
   * one that resumed it, the queue workers of its steps), or, with a store that keeps no events, those
   * this process saw.
   */
  events(id: string, afterSeq: number): Promise<StoredEvent[]>;
  /** Resolves when this process wrote events of the run, or after `timeoutMs` (poll: another process may write them). */
  changed(id: string, timeoutMs: number): Promise<void>;
  /** Resumes the runs a stopped process left `running` (crash recovery); returns how many. */
  recover(): Promise<number>;
  /**
   * Waits up to `timeoutMs` (default 10 s) for the runs in flight, then closes the store if this service
   * opened it. A run still going stays `running` in the store: the next start resumes it from its checkpoints.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** Events kept per run, and runs whose events are kept (the oldest log goes first). */
const EVENTS_PER_RUN = 10_000;
const LOGGED_RUNS = 500;

/**
 * The workflow runs `thinkflow serve` executes: each one runs in this process, checkpointed in `store`,
 * so a restarted server resumes those left running and a suspended one waits there for its resume.
 */
export function workflowRuns(options: WorkflowRunsOptions): WorkflowRuns {
  const { store, workflows } = options;
  // What every run, resume and fork gets: the store, and in queue mode where its steps run.
  const using = { store, dispatch: options.dispatch };
  const byId = new Map<string, { name: string; workflow: Workflow }>();
  for (const [name, workflow] of Object.entries(workflows))
    if (!byId.has(workflow.id)) byId.set(workflow.id, { name, workflow });
  const inFlight = new Map<string, Promise<WorkflowResult | undefined>>();
  const logs = new Map<string, { events: StoredEvent[]; seq: number; waiters: Set<() => void> }>();
  const logOf = (id: string) => {
    let log = logs.get(id);
    if (!log) {
      if (logs.size >= LOGGED_RUNS) logs.delete(logs.keys().next().value as string);
      log = { events: [], seq: 0, waiters: new Set() };
      logs.set(id, log);
    }
    return log;
  };
  const wake = (id: string) => {
    const log = logs.get(id);
    for (const waiter of log?.waiters ?? []) waiter();
    log?.waiters.clear();
  };
  // With a store that keeps events, they go there (redacted, a commit per tick), and readers read them back.
  const durable: WorkflowEventLog | undefined = store.appendEvents
    ? createWorkflowEventLog({
        store: { appendEvents: store.appendEvents.bind(store) },
        onWritten: (ids) => {
          for (const id of ids) wake(id);
        },
        // Said as what it is: the run goes on, its events wait in memory for the store.
        onError: (error) =>
          options.onError?.(
            new Error(`writing workflow events failed (kept, written again shortly): ${errorMessage(error)}`, {
              cause: error,
            }),
          ),
      })
    : undefined;
  const record = (id: string, event: AgentEvent) => {
    if (durable) return durable.add(id, event);
    const log = logOf(id);
    log.seq++;
    if (log.events.length < EVENTS_PER_RUN) log.events.push({ seq: log.seq, event });
    wake(id);
  };

  const view = async (record: WorkflowRunRecord): Promise<WorkflowRunView> => {
    const steps = visibleSteps(await store.loadSteps(record.id));
    const suspended: SuspendedStep[] = [];
    for (const [path, step] of Object.entries(steps)) {
      if (step.status === 'suspended')
        suspended.push({
          path,
          stepId: step.stepId,
          payload: step.payload,
          ...(step.event ? { event: step.event } : {}),
        });
    }
    return { ...record, workflow: byId.get(record.workflowId)?.name ?? record.workflowId, steps, suspended };
  };
  const read = async (id: string) => {
    const record = await store.getRun(id);
    return record && view(record);
  };

  /** Runs `go` in the background and resolves once its request was accepted (its `workflow_start`). */
  const launch = async (
    id: string,
    go: (onEvent: (event: AgentEvent) => void) => Promise<WorkflowResult>,
  ): Promise<void> => {
    let accepted!: () => void;
    const started = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'workflow_start') accepted();
      record(id, event);
      options.onEvent?.(event);
    };
    const run = go(onEvent);
    const tracked = run.then(
      (result) => result,
      (error: unknown) => {
        if (!(error instanceof WorkflowRequestError)) options.onError?.(error);
        return undefined;
      },
    );
    inFlight.set(id, tracked);
    void tracked.finally(async () => {
      // Its last events are written before anyone hears it ended.
      await durable?.flush();
      if (inFlight.get(id) === tracked) inFlight.delete(id);
      wake(id);
    });
    // A refused request (bad payload, changed definition) rejects before the run starts.
    await Promise.race([started, run.then(() => undefined)]);
  };

  /** Starts `begin(id)` at most once per Idempotency-Key and owner, as `startOnce` does for agent runs. */
  const once = (
    context: WorkflowStartContext,
    begin: (id: string) => Promise<WorkflowStartResult>,
  ): Promise<WorkflowStartResult> =>
    onceForKey<WorkflowStartResult, WorkflowRunView>({
      claims: options.claims,
      scope: context.owner ?? '',
      idempotency: context.idempotency,
      keyHours: options.keyHours,
      start: begin,
      find: read,
      replay: (run) => ({ ok: true, run, replayed: true }),
      mismatch: (runId) => ({ ok: false, reason: 'idempotency_mismatch', runId }),
    });

  const accepted = async (id: string, go: () => Promise<void>): Promise<WorkflowStartResult> => {
    try {
      await go();
    } catch (error) {
      if (error instanceof WorkflowRequestError) return { ok: false, reason: 'request', error };
      throw error;
    }
    const run = await read(id);
    if (!run) throw new Error(`Workflow run "${id}" was started but is not in the store.`);
    return { ok: true, run };
  };

  const ownerOf = (context: WorkflowStartContext) => (context.owner === undefined ? {} : { owner: context.owner });

  /**
   * Resumes the runs left `running` that nobody carries: at start-up those of a stopped process, and,
   * every `recoveryIntervalMs`, those whose process died (their lease expired). A run another process
   * holds is left to it.
   */
  async function recover(): Promise<number> {
    const ids = (await store.runIdsWithStatus?.('running')) ?? [];
    let n = 0;
    for (const id of ids) {
      const record = await store.getRun(id);
      const entry = record && byId.get(record.workflowId);
      if (!entry || inFlight.has(id)) continue;
      try {
        await launch(id, (onEvent) => entry.workflow.resume(id, {}, { ...using, onEvent }));
        n++;
      } catch (error) {
        if (!(error instanceof WorkflowRequestError && error.code === 'running')) options.onError?.(error);
      }
    }
    return n;
  }
  let sweeping = false;
  const sweepMs = options.recoveryIntervalMs ?? DEFAULT_LEASE_MS;
  const sweep =
    sweepMs > 0 && store.claimRun
      ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          recover()
            .catch((error: unknown) => options.onError?.(error))
            .finally(() => {
              sweeping = false;
            });
        }, sweepMs)
      : undefined;
  sweep?.unref?.();

  return {
    names: () => Object.keys(workflows),

    definition: (name) => (Object.hasOwn(workflows, name) ? workflows[name] : undefined),

    async start(name, input, context) {
      const workflow = Object.hasOwn(workflows, name) ? workflows[name] : undefined;
      if (!workflow) return { ok: false, reason: 'unknown_workflow' };
      return once(context, (id) =>
        accepted(id, () =>
          launch(id, (onEvent) => workflow.run(input, { ...using, runId: id, onEvent, ...ownerOf(context) })),
        ),
      );
    },

    get: read,

    async list({ workflow, ...query }) {
      if (!store.listRuns) return undefined;
      let workflowId: string | undefined;
      if (workflow !== undefined) {
        workflowId = Object.hasOwn(workflows, workflow) ? workflows[workflow]!.id : undefined;
        if (workflowId === undefined) return [];
      }
      const records = await store.listRuns({ ...query, workflowId });
      return records.map((record) => ({ ...record, workflow: byId.get(record.workflowId)?.name ?? record.workflowId }));
    },

    async status(id) {
      return (await store.getRun(id))?.status;
    },

    async resume(id, request) {
      const record = await store.getRun(id);
      const entry = record && byId.get(record.workflowId);
      if (!record || !entry) throw new WorkflowRequestError(`No workflow run with id "${id}".`, 'not_found');
      if (inFlight.has(id))
        throw new WorkflowRequestError(`Run "${id}" is running; resume it once it has suspended.`, 'not_suspended');
      await launch(id, (onEvent) => entry.workflow.resume(id, request, { ...using, onEvent }));
      return (await read(id))!;
    },

    async fork(id, request, context) {
      const record = await store.getRun(id);
      const entry = record && byId.get(record.workflowId);
      if (!record || !entry)
        return {
          ok: false,
          reason: 'request',
          error: new WorkflowRequestError(`No workflow run with id "${id}".`, 'not_found'),
        };
      return once(context, (newId) =>
        accepted(newId, () =>
          launch(newId, (onEvent) =>
            entry.workflow.fork(id, request, { ...using, runId: newId, onEvent, ...ownerOf(context) }),
          ),
        ),
      );
    },

    async cancel(id) {
      const record = await store.getRun(id);
      const entry = record && byId.get(record.workflowId);
      if (!record || !entry) throw new WorkflowRequestError(`No workflow run with id "${id}".`, 'not_found');
      await entry.workflow.cancel(id, { store });
      await inFlight.get(id);
      return (await read(id))!;
    },

    async wait(id) {
      await inFlight.get(id);
      return read(id);
    },

    running: (id) => inFlight.has(id),

    async events(id, afterSeq) {
      if (store.readEvents) return store.readEvents(id, afterSeq);
      return (logs.get(id)?.events ?? []).filter((stored) => stored.seq > afterSeq);
    },

    changed(id, timeoutMs) {
      return new Promise((resolve) => {
        const log = logOf(id);
        const timer = setTimeout(done, timeoutMs);
        timer.unref?.();
        function done() {
          clearTimeout(timer);
          log.waiters.delete(done);
          resolve();
        }
        log.waiters.add(done);
      });
    },

    recover,

    async close({ timeoutMs = 10_000 } = {}) {
      clearInterval(sweep);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.all([...inFlight.values()]), late]);
      clearTimeout(timer);
      await durable?.flush();
      if (options.ownStore) await store.close?.();
    },
  };
}
