import { errorMessage, type JournalStep, type StepJournal } from '../core/index.js';
import { toJsonValue } from './nested-calls.js';
import type { TimedOutcome } from './run-with-timeout.js';

/** How a tool call ended, with the attempts it took: what the executor turns into its record. */
export interface CallOutcome {
  outcome: TimedOutcome<unknown>;
  attempts: number;
}

/** A call's outcome as a journal keeps it: JSON, the same on every replay. */
type RecordedOutcome =
  | { type: 'ok'; value?: unknown; attempts: number }
  | { type: 'error'; error: string; attempts: number }
  | { type: 'timeout' | 'aborted'; attempts: number };

/** One tool call to run as a step of a durable engine's journal. */
export interface JournaledCallContext {
  journal: StepJournal;
  tool: { name: string; idempotent?: boolean };
  input: unknown;
  /** The step's place in the run: `<step>/<callId>`. */
  key: string;
  signal?: AbortSignal;
  /** The call with its timeout and retries: all of it runs inside the one step. */
  attempt(): Promise<CallOutcome>;
}

/**
 * Runs a tool call as one step of the journal: its timeout and retries (thinkflow's, the only retry
 * layer) inside the step, its outcome recorded as JSON (a failure as a recorded outcome, never a
 * failed step, so an engine adds no retries of its own). A replay returns the outcome without running
 * the tool. An engine runs a step again when its process died during it; for a tool that is not
 * idempotent that would repeat a side effect that may have happened, so such a call first records a
 * `:start` step, and a replay that finds the start but not the end answers as the built-in engine
 * does: the call was interrupted and is not run again.
 */
export async function runJournaledCall(ctx: JournaledCallContext): Promise<CallOutcome> {
  const { journal, tool, input, key } = ctx;
  const step: JournalStep = { kind: 'tool', name: tool.name, input, key };
  const run = async () => recorded(await ctx.attempt());
  try {
    if (tool.idempotent) return replayed(await journal.step(step, run));
    let startedHere = false;
    await journal.step({ kind: 'tool', name: `${tool.name}:start`, key: `${key}:start` }, async () => {
      startedHere = true;
      return null;
    });
    const cutOff: RecordedOutcome = { type: 'error', error: interrupted(tool.name), attempts: 0 };
    return replayed(await journal.step(step, () => (startedHere ? run() : Promise.resolve(cutOff))));
  } catch (error) {
    // The journal itself failed (the engine cancelled the run, its store is down): the call did not end.
    if (ctx.signal?.aborted) return { outcome: { type: 'aborted' }, attempts: 0 };
    return { outcome: { type: 'error', error }, attempts: 0 };
  }
}

function recorded({ outcome, attempts }: CallOutcome): RecordedOutcome {
  if (outcome.type === 'ok') return { type: 'ok', value: toJsonValue(outcome.value), attempts };
  if (outcome.type === 'error') return { type: 'error', error: errorMessage(outcome.error), attempts };
  return { type: outcome.type, attempts };
}

/** The outcome a record stands for: the first run and a replay see the same JSON value and the same error text. */
function replayed(record: RecordedOutcome): CallOutcome {
  const { attempts } = record;
  if (record.type === 'ok') return { outcome: { type: 'ok', value: record.value }, attempts };
  if (record.type === 'error') return { outcome: { type: 'error', error: new Error(record.error) }, attempts };
  return { outcome: { type: record.type }, attempts };
}

function interrupted(name: string): string {
  return `The call to ${name} was interrupted by a restart and was not run again (the tool is not idempotent). Check its effect before calling it again.`;
}
