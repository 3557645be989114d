import type * as Restate from '@restatedev/restate-sdk';
import { errorMessage, type StepJournal } from '../../core/index.js';

/** A journal over a Restate context, that remembers whether Restate cancelled the invocation. */
export interface RestateJournal extends StepJournal {
  /** Set when a step or a wait saw Restate's cancel: the handler rethrows it once the loop has ended. */
  cancelled?: Error;
}

/**
 * The step journal of one Restate invocation: steps are `ctx.run`, answers are awakeables, sleeps
 * are `ctx.sleep`. A step that throws is journaled as a `TerminalError` (thinkflow already retried
 * inside it), so Restate adds no retries of its own.
 */
export function restateJournal(sdk: typeof Restate, ctx: Restate.Context, abort: AbortController): RestateJournal {
  const journal: RestateJournal = {
    engine: 'restate',
    step: (step, fn) => watch(ctx.run(`${step.kind}:${step.name}`, () => terminal(fn))),
    answer<T>(_key: string, announce: (answerId: string) => void): Promise<T> {
      const awakeable = ctx.awakeable<T>();
      announce(awakeable.id);
      return watch(awakeable.promise);
    },
    sleep: (ms) => watch(ctx.sleep(ms)),
    seed: () => watch(ctx.run('seed', async () => Math.floor(Math.random() * 2 ** 31))),
    now: () => watch(ctx.run('now', async () => Date.now())),
  };

  async function terminal<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof sdk.TerminalError) throw error;
      throw new sdk.TerminalError(errorMessage(error));
    }
  }

  async function watch<T>(promise: PromiseLike<T>): Promise<T> {
    try {
      return await promise;
    } catch (error) {
      if (error instanceof sdk.CancelledError) {
        journal.cancelled ??= error;
        abort.abort(error);
      }
      throw error;
    }
  }
  return journal;
}
