import { stableJson } from '../core/index.js';
import type { NestedCallRecord, NestedCalls, NestedJournal, ToolRegistry } from '../tools/index.js';
import { type BudgetClock, ProgramStop } from './run-program.js';

/** What answering a program's calls needs: the run's nested calls, the tools, and this call's id. */
export interface ReplayContext {
  nested: NestedCalls;
  /** Where the program's tool names resolve (the run's own registry when undefined). */
  registry: ToolRegistry | undefined;
  /** The `run_code` call's id: nested call ids are `<id>.<n>`. */
  callId: string;
  /** What the program recorded before a restart, when it runs again after one. */
  recorded?: NestedJournal;
  /** What this run of the program records (written with the run's checkpoints). */
  journal: NestedJournal;
}

/**
 * The program's `tools.x(input)`: the n-th call is answered from the n-th recorded call when the
 * program ran before a restart (the same tool with the same input, or the replay has diverged and
 * the program stops naming that call), and otherwise runs through the run's pipeline, recorded as
 * started (and written) before it runs and as ended after, so a later replay never runs it twice.
 */
export function replayingCaller(ctx: ReplayContext) {
  const { nested, journal, recorded } = ctx;
  const save = () => nested.save(journal).catch(() => {});
  return async (name: string, input: unknown, clock: BudgetClock, signal: AbortSignal): Promise<unknown> => {
    const seq = journal.calls.length;
    const before = recorded?.calls[seq];
    if (before) {
      if (before.name !== name || stableJson(before.input) !== stableJson(input)) {
        throw new ProgramStop(
          'diverged',
          `The program took another path when it ran again after a restart: its call #${seq + 1} was tools.${before.name}(${stableJson(before.input)}) and is now tools.${name}(${stableJson(input)}). Calls that had ended were not run again.`,
        );
      }
      if (before.state === 'ended') {
        journal.calls.push({ ...before });
        if (before.ok) return before.value;
        throw new Error(before.error ?? `Tool ${name} failed.`);
      }
      const tool = (ctx.registry ?? nested.registry).get(name);
      if (before.state === 'started' && tool?.idempotent !== true) {
        journal.calls.push({ ...before, state: 'ended', ok: false, error: interrupted(name) });
        save();
        throw new Error(interrupted(name));
      }
    }
    const entry: NestedCallRecord = { id: before?.id ?? `${ctx.callId}.${seq + 1}`, name, input, state: 'started' };
    journal.calls.push(entry);
    try {
      await nested.save(journal);
    } catch (error) {
      entry.state = 'ended';
      entry.ok = false;
      throw new Error(`The call to ${name} was not made: recording its start failed (${String(error)}).`);
    }
    let paused = false;
    const outcome = await nested.run({ id: entry.id, name, input }, ctx.registry, {
      signal,
      onWait() {
        entry.state = 'waiting';
        if (!paused) clock.pause();
        paused = true;
        save();
      },
      async beforeStart() {
        if (paused) clock.resume();
        paused = false;
        entry.state = 'started';
        await nested.save(journal);
      },
    });
    if (paused) clock.resume();
    entry.state = 'ended';
    entry.ok = outcome.ok;
    if (outcome.ok) entry.value = outcome.value;
    else entry.error = outcome.error;
    save();
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.value;
  };
}

function interrupted(name: string): string {
  return `The call to ${name} was interrupted by a restart and was not run again (the tool is not idempotent). Check its effect before calling it again.`;
}
