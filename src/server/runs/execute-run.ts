import type { AgentEvent, RunResult } from '../../core/index.js';
import { errorMessage, redactedIfSecret } from '../../core/index.js';
import type { RunRecord, RunStore, ServableAgent } from '../records/index.js';
import { createQuestionBox, type QuestionBox } from '../records/index.js';
import { callerRunOptions } from './caller-run-options.js';
import { loggedCallEvents } from './logged-call-events.js';
import { createDeltaRedactor } from './redact-deltas.js';
import { type RunStoreJournal, runStoreJournal } from './run-store-journal.js';
import { syntheticResult } from './synthetic-result.js';

export interface ExecuteRunOptions {
  agent: ServableAgent;
  run: RunRecord;
  store: RunStore;
  signal: AbortSignal;
  /** Called after each event is logged and after each status change (wakes SSE readers). */
  onChange?: (runId: string) => void;
  /** Receives the run's question box, so answers can be routed to it. */
  onQuestions?: (box: QuestionBox) => void;
  /** True when the process is shutting down: an aborted run then stays unfinished, to resume later. */
  isStopping?: () => boolean;
  /** Where write failures that have no awaiting caller go (the next checkpoint's commit also fails loudly). */
  onError?: (error: unknown) => void;
  /** Called once the run's end is committed, with the run as now stored (redacted, as every answer is). */
  onEnd?: (run: RunRecord) => void;
  /** A run never started before: skips reading its (empty) log and checkpoint. */
  fresh?: boolean;
}

/**
 * Runs one stored run to its end on the built-in engine: every event goes to the log with the next
 * `seq`, every model call, tool call and answer is a record of the run's step journal in the store
 * (`runStoreJournal`), and approvals or `ask_user` questions pause it as `waiting`. Resumes from the
 * stored checkpoint (the finished steps) when there is one; the journal answers the calls that ended
 * before the restart, so they never run again. Resolves undefined when the run was stopped by a
 * shutdown and left to resume.
 */
export async function executeRun(options: ExecuteRunOptions): Promise<RunResult | undefined> {
  const { agent, run, store, signal } = options;
  const changed = () => options.onChange?.(run.id);
  const report = (error: unknown) => options.onError?.(error);
  // Writes made in one tick share one commit promise: one handler per commit reports its failure once.
  let watched: Promise<void> | undefined;
  const unawaited = (write: Promise<void>) => {
    if (write === watched) return;
    watched = write;
    write.catch(report);
  };
  let seq = options.fresh ? 0 : await store.lastSeq(run.id);
  // A credential the model streams arrives in pieces; the stored deltas hold it back whole (redacted).
  const deltas = createDeltaRedactor();
  const resume = options.fresh ? undefined : await store.loadCheckpoint(run.id);
  const entries = options.fresh ? [] : await store.readJournal(run.id);
  const step = resume?.pending?.index ?? resume?.steps.length;
  const journal = runStoreJournal({ store, runId: run.id, signal, entries, step });
  // The events of the calls the journal answers again that the log holds already.
  const logged = entries.length > 0 ? await loggedCallEvents(store, run.id) : () => false;
  const box = createQuestionBox({
    signal,
    onChange: (questions) => {
      const status = questions.length > 0 ? 'waiting' : 'running';
      unawaited(store.updateRun(run.id, { status, questions, updatedAt: Date.now() }));
      changed();
    },
  });
  options.onQuestions?.(box);
  // Not awaited: it commits with the first checkpoint, which the loop awaits before calling the model.
  // A resumed run's old questions went with the old process: a call still waiting asks again.
  unawaited(store.updateRun(run.id, { status: 'running', questions: undefined, updatedAt: Date.now() }));
  changed();

  let result: RunResult;
  try {
    result = await agent.run(run.input, {
      ...callerRunOptions(run.caller, box),
      runId: run.id,
      history: run.history,
      signal,
      resume,
      journal,
      onEvent(event) {
        // A run stopped by a shutdown resumes later; its log must not claim it ended.
        if (event.type === 'run_end' && options.isStopping?.() && event.status === 'aborted') return;
        if (logged(event)) return;
        if (event.type === 'approval_request' && event.answerId !== undefined && !event.parentRunId) {
          askThroughBox({ box, journal, signal }, event);
        }
        for (const stored of deltas.next(event)) {
          seq += 1;
          // Not awaited: the next checkpoint's commit includes it, as writes commit in order.
          unawaited(store.appendEvent(run.id, seq, stored));
        }
        changed();
      },
      onCheckpoint: (checkpoint) => store.saveCheckpoint(checkpoint),
    });
  } catch (error) {
    // The loop turns failures into results; a throw here is a bug, recorded rather than lost.
    result = syntheticResult(run.id, 'failed', { code: 'internal', message: errorMessage(error) });
  }
  if (options.isStopping?.() && result.status === 'aborted') return undefined;
  const patch = { status: result.status, result, updatedAt: Date.now() };
  await store.updateRun(run.id, { ...patch, questions: undefined });
  const { questions: _, ...rest } = run;
  options.onEnd?.(redactedIfSecret({ ...rest, ...patch }));
  changed();
  return result;
}

/**
 * A wait the run announced (an approval, an `ask_user` question) goes to the run's question box, for a
 * person (or a client) to answer through the approval routes; the answer is recorded in the journal,
 * so a restart after it does not ask again. A run stopped before anyone answered records nothing: a
 * resumed run asks again.
 */
function askThroughBox(
  ctx: { box: QuestionBox; journal: RunStoreJournal; signal: AbortSignal },
  event: Extract<AgentEvent, { type: 'approval_request' }>,
): void {
  const { box, journal, signal } = ctx;
  const answerId = event.answerId!;
  const kind = event.kind ?? 'approval';
  const { tool, callId } = event;
  const input = kind === 'question' ? { question: event.question } : event.input;
  box.ask({ kind, tool, input, question: event.question, callId }).then(
    (answer) => {
      if (signal.aborted) {
        if (kind === 'approval') journal.reject(answerId, new Error('The run stopped before the approval was given.'));
        else journal.reject(answerId, new Error('The run stopped before the user answered.'));
        return;
      }
      const value = kind === 'question' ? (answer.text ?? (answer.approved ? 'yes' : 'no')) : answer;
      journal.resolve(answerId, value).catch((error: unknown) => journal.reject(answerId, asError(error)));
    },
    (error: unknown) => journal.reject(answerId, asError(error)),
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}
