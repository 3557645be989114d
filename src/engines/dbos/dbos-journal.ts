import type * as Dbos from '@dbos-inc/dbos-sdk';
import type { StepJournal } from '../../core/index.js';

/** A journal over the running DBOS workflow, that remembers whether DBOS cancelled it. */
export interface DbosJournal extends StepJournal {
  /** Set when a step or a wait saw DBOS's cancel: the workflow rethrows it once the loop has ended. */
  cancelled?: Error;
}

// recv waits in slices; a run may wait days for a person, and each slice is one durable wait.
const RECV_SLICE_SECONDS = 3600;

/**
 * The step journal of the running DBOS workflow: steps are `DBOS.runStep` (never retried by DBOS:
 * thinkflow retried inside them), answers are `DBOS.recv` on a topic per question, sleeps are
 * `DBOS.sleep`, seed and clock are steps.
 */
export function dbosJournal(sdk: typeof Dbos, abort: AbortController): DbosJournal {
  const dbos = sdk.DBOS;
  const journal: DbosJournal = {
    engine: 'dbos',
    step: (step, fn) => watch(dbos.runStep(fn, { name: `${step.kind}:${step.name}`, retriesAllowed: false })),
    async answer<T>(key: string, announce: (answerId: string) => void): Promise<T> {
      announce(key);
      for (;;) {
        const answer = await watch(dbos.recv<T>(key, RECV_SLICE_SECONDS));
        if (answer !== null) return answer;
      }
    },
    sleep: (ms) => watch(dbos.sleep(ms)),
    seed: () => watch(dbos.runStep(async () => Math.floor(Math.random() * 2 ** 31), { name: 'seed' })),
    now: () => watch(dbos.now()),
  };

  async function watch<T>(promise: Promise<T>): Promise<T> {
    try {
      return await promise;
    } catch (error) {
      if (error instanceof sdk.Error.DBOSWorkflowCancelledError) {
        journal.cancelled ??= error;
        abort.abort(error);
      }
      throw error;
    }
  }
  return journal;
}
