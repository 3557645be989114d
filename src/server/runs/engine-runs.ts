import type { AgentEvent, RunResult } from '../../core/index.js';
import { emptyStats, errorMessage, writeStderr } from '../../core/index.js';
import type { EngineClient } from '../../engines/index.js';
import type { PendingQuestion, RunRecord, RunService, RunStore, StartRequest } from '../records/index.js';
import { queuedRun } from '../records/index.js';
import { waitForEnd } from './follow-run.js';

/** What `engineRuns` serves: the runs' store (the workers write it), the engine, and the agents it runs. */
export interface EngineRunsOptions {
  store: RunStore;
  client: EngineClient;
  /** The agents served: each is the engine's service (Restate) or workflow (DBOS) of that name. */
  agents: readonly string[];
  /** How often a wait reads the store again. Default 200 ms. */
  pollMs?: number;
}

/**
 * thinkflow's server (the run routes, the approval route, Studio) over runs a durable engine executes:
 * a start goes to the engine, an answer to POST /v1/runs/:id/approvals resolves the engine's wait (a
 * Restate awakeable, a DBOS `send`), a cancel is the engine's cancel, and the runs, their questions and
 * their events are read from the store the workers record them in (`engineRunRecorder`).
 * Idempotency-Keys and forks are not served for engine runs.
 *
 * @example
 * const store = new PostgresRunStore({ connectionString }); // the workers record into the same store
 * const app = createApp({ runs: engineRuns({ store, agents: ['support'], client: restateClient({ ingress, admin }) }) });
 */
export function engineRuns(options: EngineRunsOptions): RunService {
  const { store, client, agents } = options;
  const pollMs = options.pollMs ?? 200;
  const service: RunService = {
    agentNames: () => [...agents],
    async start(request: StartRequest) {
      if (!agents.includes(request.agent)) return { ok: false, reason: 'unknown_agent' };
      const id = await client.start({ agent: request.agent, input: request.input, history: request.history });
      const run: RunRecord = { ...queuedRun(request, id), status: 'running' };
      // The worker may have recorded the run already (its run_start came first).
      if (!(await store.getRun(id))) await store.createRun(run);
      return { ok: true, run: (await store.getRun(id)) ?? run };
    },
    get: (id) => store.getRun(id),
    status: (id) => store.getStatus(id),
    list: (query) => store.queryRuns(query),
    events: (id, afterSeq) => store.readEvents(id, afterSeq),
    changed: (_id, timeoutMs) => new Promise((resolve) => setTimeout(resolve, Math.min(timeoutMs, pollMs))),
    wait: (id, signal) => waitForEnd(service, id, signal),
    async cancel(id) {
      if (!(await store.getRun(id))) return undefined;
      await client.cancel(id);
      return waitForEnd(service, id);
    },
    async answer(id, { questionId, ...answer }) {
      const run = await store.getRun(id);
      if (!run) return 'not_found';
      const open = (run.questions ?? []).filter((q) => !q.answer);
      const question = questionId ? open.find((q) => q.id === questionId) : open.length === 1 ? open[0] : undefined;
      if (!question) return 'no_question';
      // The question's id is the engine's id for the wait.
      const value = question.kind === 'question' ? (answer.text ?? (answer.approved ? 'yes' : '')) : answer;
      await client.answer(id, question.id, value);
      const questions = (run.questions ?? []).map((q) => (q.id === question.id ? { ...q, answer } : q));
      await store.updateRun(id, { questions, updatedAt: Date.now() });
      return 'answered';
    },
    close: async () => {},
  };
  return service;
}

/** A worker's writer of its runs into thinkflow's store: pass `onEvent` to `restateAgent` or `dbosAgent`. */
export interface EngineRunRecorder {
  onEvent(event: AgentEvent, meta: { seq: number }): void;
  /** Resolves once every write so far is done. */
  flush(): Promise<void>;
}

/**
 * Records the runs a worker executes on a durable engine into thinkflow's run store, for `engineRuns`:
 * the record (created at `run_start` if the server has not yet), each event once (a replay's events
 * carry the `seq` they had, and those the store has are skipped), the questions the run waits on (their
 * id is the engine's `answerId`) and the result at `run_end`. Writes of one run go in order; a failed
 * write goes to `onError`.
 */
export function engineRunRecorder(
  store: RunStore,
  onError: (error: unknown) => void = (error) => writeStderr(`thinkflow engine recorder: ${errorMessage(error)}\n`),
): EngineRunRecorder {
  const chains = new Map<string, { tail: Promise<void>; stored?: number }>();
  const writes = new Set<Promise<void>>();
  return {
    onEvent(event, meta) {
      const runId = event.runId;
      if (event.parentRunId) return;
      const chain = chains.get(runId) ?? { tail: Promise.resolve() };
      chains.set(runId, chain);
      const write = chain.tail.then(() => record(store, chain, event, meta.seq + 1)).catch(onError);
      chain.tail = write;
      writes.add(write);
      void write.finally(() => {
        writes.delete(write);
        if (event.type === 'run_end' && chain.tail === write) chains.delete(runId);
      });
    },
    flush: async () => {
      await Promise.all([...writes]);
    },
  };
}

async function record(store: RunStore, chain: { stored?: number }, event: AgentEvent, seq: number): Promise<void> {
  if (chain.stored === undefined) {
    if (event.type === 'run_start' && !(await store.getRun(event.runId))) {
      const now = Date.now();
      const run: RunRecord = {
        id: event.runId,
        agent: event.agent ?? 'agent',
        input: event.input,
        status: 'running',
        source: 'api',
        createdAt: now,
        updatedAt: now,
      };
      await store.createRun(run);
    }
    chain.stored = await store.lastSeq(event.runId);
  }
  if (seq <= chain.stored) return;
  chain.stored = seq;
  await store.appendEvent(event.runId, seq, event);
  await recordState(store, event);
}

/** What an event changes in the run's record: its questions, its status, its result. */
async function recordState(store: RunStore, event: AgentEvent): Promise<void> {
  const now = Date.now();
  if (event.type === 'approval_request' && event.answerId !== undefined) {
    const run = await store.getRun(event.runId);
    const { answerId, tool, input, question, callId } = event;
    const asked: PendingQuestion = { id: answerId, kind: event.kind ?? 'approval', tool, input, question, callId };
    const questions = [...(run?.questions ?? []).filter((q) => q.id !== answerId), asked];
    await store.updateRun(event.runId, { status: 'waiting', questions, updatedAt: now });
  } else if (event.type === 'approval_response') {
    const run = await store.getRun(event.runId);
    const questions = (run?.questions ?? []).filter((q) => q.callId !== event.callId);
    await store.updateRun(event.runId, { status: questions.length ? 'waiting' : 'running', questions, updatedAt: now });
  } else if (event.type === 'run_end') {
    const result: RunResult = {
      runId: event.runId,
      status: event.status,
      output: event.output,
      steps: [],
      usage: event.usage,
      stats: emptyStats(),
      durationMs: event.durationMs,
      error: event.error,
    };
    await store.updateRun(event.runId, { status: event.status, result, questions: undefined, updatedAt: now });
  }
}
