import { redactedIfSecret, writeStderr } from '../../core/index.js';
import { agentLimits, type ServerLimits } from '../health/index.js';
import type { QuestionBox, RunRecord, RunStore } from '../records/index.js';
import {
  type AgentEntry,
  queuedRun,
  queueFull,
  type RunService,
  resolveAgent,
  type StartRequest,
  type StartResult,
  waitForEnd,
} from '../records/index.js';
import { createChangeSignal } from './change-signal.js';
import { executeRun } from './execute-run.js';
import { storeRuns } from './store-runs.js';
import { endUnstarted } from './synthetic-result.js';

export interface LocalRunsOptions {
  agents: Record<string, AgentEntry>;
  store: RunStore;
  limits?: ServerLimits;
  /** Where failures with no caller go (a store that cannot write). Default: stderr. */
  onError?: (error: unknown) => void;
}

/** A run service that also resumes the runs a previous process left unfinished. */
export interface LocalRuns extends RunService {
  fork: NonNullable<RunService['fork']>;
  /** Re-queues every unfinished run of a known agent from its last checkpoint; returns how many. */
  resumeUnfinished(): Promise<number>;
}

interface Lane {
  active: number;
  queue: { run: RunRecord; fresh: boolean }[];
}

/**
 * Executes runs in this process, at most `maxConcurrentRuns` per agent with a bounded queue behind,
 * logging events and checkpoints to the store.
 */
export function createLocalRuns(options: LocalRunsOptions): LocalRuns {
  const { agents, store, limits } = options;
  const onError = options.onError ?? ((error: unknown) => writeStderr(`thinkflow server: ${String(error)}\n`));
  const signal = createChangeSignal();
  const lanes = new Map<string, Lane>();
  const controllers = new Map<string, AbortController>();
  const boxes = new Map<string, QuestionBox>();
  const running = new Set<Promise<void>>();
  // Runs of this process that have not ended yet: `wait` awaits these instead of polling the store.
  // They resolve with the ended run as stored, or undefined when it did not end (a shutdown), to read it back.
  type Ending = RunRecord | undefined;
  const endings = new Map<string, { promise: Promise<Ending>; resolve: (run: Ending) => void }>();
  const track = (id: string) => {
    let resolve: (run: Ending) => void = () => {};
    const promise = new Promise<Ending>((r) => {
      resolve = r;
    });
    endings.set(id, { promise, resolve });
  };
  const ended = (id: string, run?: RunRecord) => {
    endings.get(id)?.resolve(run);
    endings.delete(id);
  };
  let stopping = false;

  const lane = (agent: string): Lane => {
    let found = lanes.get(agent);
    if (!found) {
      found = { active: 0, queue: [] };
      lanes.set(agent, found);
    }
    return found;
  };

  function pump(agent: string): void {
    const own = lane(agent);
    const { concurrent } = agentLimits(limits, agent);
    while (!stopping && own.active < concurrent && own.queue.length > 0) {
      const next = own.queue.shift()!;
      own.active += 1;
      const task = launch(next.run, next.fresh).finally(() => {
        own.active -= 1;
        running.delete(task);
        pump(agent);
      });
      running.add(task);
    }
  }

  async function launch(run: RunRecord, fresh: boolean): Promise<void> {
    const controller = new AbortController();
    controllers.set(run.id, controller);
    let final: RunRecord | undefined;
    try {
      const agent = await resolveAgent(agents[run.agent]);
      await executeRun({
        agent,
        run,
        store,
        fresh,
        signal: controller.signal,
        onChange: (id) => signal.notify(id),
        onQuestions: (box) => boxes.set(run.id, box),
        isStopping: () => stopping,
        onError,
        onEnd: (stored) => {
          final = stored;
        },
      });
    } catch (error) {
      onError(error);
    } finally {
      controllers.delete(run.id);
      boxes.delete(run.id);
      ended(run.id, final);
      signal.notify(run.id);
    }
  }

  /** Queues a new run under `id` for its agent's lane (refused when the lane is full or the service stops). */
  async function startNew(request: StartRequest, id: string): Promise<StartResult> {
    const { agent } = request;
    if (!Object.hasOwn(agents, agent)) return { ok: false, reason: 'unknown_agent' };
    const own = lane(agent);
    const { concurrent, queued } = agentLimits(limits, agent);
    if (stopping || (own.active >= concurrent && own.queue.length >= queued)) {
      return queueFull(limits);
    }
    const run = queuedRun(request, id);
    track(run.id);
    // A fork resumes from its first checkpoint, written with the run.
    own.queue.push({ run, fresh: !request.fork });
    // Committed with the first events in one transaction; reads always see it.
    void store.createRun(run).catch(onError);
    if (request.fork) void store.saveCheckpoint({ ...request.fork, runId: id }).catch(onError);
    pump(agent);
    // The caller gets the run as the store keeps it; the queued copy keeps the input as given.
    return { ok: true, run: redactedIfSecret(run) };
  }

  const service: LocalRuns = {
    ...storeRuns({ store, limits, startNew }),
    agentNames: () => Object.keys(agents),
    changed: (id, timeoutMs) => signal.wait(id, timeoutMs),
    async wait(id, abort) {
      const ending = endings.get(id);
      if (!ending) return waitForEnd(service, id, abort);
      if (abort?.aborted) return store.getRun(id);
      // The listener goes once the run ends: a long-lived signal (a connection's, a caller's) would
      // otherwise keep every run it ever waited on reachable.
      let onAbort = () => {};
      const aborted = new Promise<Ending>((resolve) => {
        onAbort = () => resolve(undefined);
        abort?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        return (await Promise.race([ending.promise, aborted])) ?? (await store.getRun(id));
      } finally {
        abort?.removeEventListener('abort', onAbort);
      }
    },

    async cancel(id) {
      const controller = controllers.get(id);
      if (controller) {
        controller.abort();
        return waitForEnd(service, id);
      }
      const run = await store.getRun(id);
      if (!run) return undefined;
      for (const own of lanes.values()) {
        const index = own.queue.findIndex((entry) => entry.run.id === id);
        if (index >= 0) {
          own.queue.splice(index, 1);
          await endUnstarted(store, run, 'Cancelled before it started.');
          ended(id);
          signal.notify(id);
        }
      }
      return store.getRun(id);
    },

    async answer(id, { questionId, ...answer }) {
      const box = boxes.get(id);
      if (box) return box.answer(answer, questionId) ? 'answered' : 'no_question';
      return (await store.getRun(id)) ? 'no_question' : 'not_found';
    },

    async resumeUnfinished() {
      const runs = await store.listRuns({ status: ['queued', 'running', 'waiting'] });
      let count = 0;
      for (const run of runs) {
        if (!Object.hasOwn(agents, run.agent) || controllers.has(run.id)) continue;
        track(run.id);
        lane(run.agent).queue.push({ run, fresh: false });
        count += 1;
      }
      for (const agent of lanes.keys()) pump(agent);
      return count;
    },

    async close({ timeoutMs = 10_000 } = {}) {
      stopping = true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
      // Runs still going are aborted; with `stopping` set they stay unfinished and resume next start.
      for (const controller of controllers.values()) controller.abort();
      await Promise.allSettled([...running]);
    },
  };
  return service;
}
