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
 *
 * Operations run one at a time: SDK 1.14 (the last that runs on Node 20) fails an invocation that
 * awaits two Restate promises at once ("awaitNext already pending", restatedev/sdk-typescript#743),
 * so a step's parallel tool calls run in turn here.
 */
export function restateJournal(sdk: typeof Restate, ctx: Restate.Context, abort: AbortController): RestateJournal {
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(operation: () => PromiseLike<T>): Promise<T> => {
    const next = tail.then(() => watch(operation()));
    tail = next.catch(() => {});
    return next;
  };
  const journal: RestateJournal = {
    engine: 'restate',
    step: (step, fn) => inTurn(() => ctx.run(`${step.kind}:${step.name}`, () => terminal(fn))),
    answer<T>(_key: string, announce: (answerId: string) => void): Promise<T> {
      return inTurn(() => {
        const awakeable = ctx.awakeable<T>();
        announce(awakeable.id);
        return awakeable.promise;
      });
    },
    sleep: (ms) => inTurn(() => ctx.sleep(ms)),
    seed: () => inTurn(() => ctx.run('seed', async () => Math.floor(Math.random() * 2 ** 31))),
    now: () => inTurn(() => ctx.run('now', async () => Date.now())),
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
