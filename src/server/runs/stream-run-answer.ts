import { yieldTurn } from '../../core/index.js';
import { type AnswerDelta, createAnswerReader } from '../../protocols/index.js';
import { isFinished, type PendingQuestion, type RunRecord, type RunService, watchChanges } from '../records/index.js';

/** Tokens the model calls of an answer used; `estimated` when a model did not report them. */
export interface AnswerUsage {
  promptTokens: number;
  completionTokens: number;
  estimated?: boolean;
}

/**
 * How following a run's answer ended: the run ended, it waits for the caller's tool results, or the
 * caller left. `usage` counts the model calls this answer covers (after `afterSeq`).
 */
export type AnswerEnd = { usage: AnswerUsage } & (
  | { type: 'ended'; run: RunRecord | undefined }
  | { type: 'client_tools'; run: RunRecord; calls: PendingQuestion[] }
  | { type: 'aborted' }
);

/** What following an answer reads of the run service. */
export type AnswerSource = Pick<RunService, 'events' | 'changed' | 'get' | 'status' | 'wait'>;

/** The sequence number of a run's last logged event (0 for none), read a page at a time. */
export async function lastSeq(runs: Pick<RunService, 'events'>, id: string): Promise<number> {
  let seq = 0;
  for (;;) {
    const page = await runs.events(id, seq);
    if (page.length === 0) return seq;
    seq = page[page.length - 1].seq;
  }
}

export interface StreamRunAnswerOptions {
  signal?: AbortSignal;
  /** Only the final answer, whole (structured output). */
  finalOnly?: boolean;
  /** Answer only from events after this one (a run resumed with tool results goes on from there). */
  afterSeq?: number;
  /** Questions the caller just answered (their ids): the run no longer waits on them, whatever its stored record still says. */
  answered?: ReadonlySet<string>;
}

/**
 * Follows a run's event log and yields its answer text while the run goes on (`createAnswerReader`,
 * the one translation every adapter uses), then returns how it ended. A run whose model called the
 * caller's own tools stops the answer there (`client_tools`, once every such call of the step waits
 * for its result); the run waits for the caller's next request, which continues it.
 */
export async function* streamRunAnswer(
  runs: AnswerSource,
  id: string,
  options: StreamRunAnswerOptions = {},
): AsyncGenerator<AnswerDelta, AnswerEnd> {
  const { signal, afterSeq = 0 } = options;
  const reader = createAnswerReader({ finalOnly: options.finalOnly });
  const record = await runs.get(id);
  if (!record) return { type: 'ended', run: undefined, usage: { promptTokens: 0, completionTokens: 0 } };
  const clientTools = new Set(record.caller?.tools?.map((tool) => tool.name));
  // The caller's tool calls of the current step that have not ended.
  const open = new Set<string>();
  const usage: AnswerUsage = { promptTokens: 0, completionTokens: 0 };
  let after = 0;
  const watch = watchChanges(runs, id, 1000);
  while (!signal?.aborted) {
    watch.arm();
    const events = await runs.events(id, after);
    for (const { seq, event } of events) {
      after = seq;
      if (event.runId !== id) continue;
      // A step's calls start together (their events commit with the first question), so by the time the
      // run is seen waiting, every caller's call of the step has started.
      if (event.type === 'tool_start' && clientTools.has(event.tool)) open.add(event.callId);
      else if (event.type === 'tool_end') open.delete(event.callId);
      else if (event.type === 'model_response' && event.usage && seq > afterSeq) {
        usage.promptTokens += event.usage.promptTokens;
        usage.completionTokens += event.usage.completionTokens;
        if (event.usage.estimated) usage.estimated = true;
      }
      const deltas = reader.read(event);
      if (seq > afterSeq) yield* deltas;
      if (event.type === 'run_end') return { type: 'ended', run: await runs.wait(id, signal), usage };
    }
    if (events.length > 0) {
      // Between pages the event loop serves everyone else (a long log, many readers).
      await yieldTurn();
      continue;
    }
    const status = await runs.status(id);
    // Events are committed before the final status, so an ended run with nothing left to read is done.
    if (!status || isFinished(status)) return { type: 'ended', run: await runs.get(id), usage };
    // Only a run that waits, with the caller's calls open, can be waiting for the caller.
    const run = status === 'waiting' && open.size > 0 ? await runs.get(id) : undefined;
    const waiting = run && waitingCalls(run, open, options.answered);
    if (run && waiting) return { type: 'client_tools', run, calls: waiting, usage };
    await watch.sleep();
  }
  return { type: 'aborted', usage };
}

/** The client-tool questions the run waits on, once every open call of the step has one. */
function waitingCalls(
  run: RunRecord,
  open: ReadonlySet<string>,
  answered: ReadonlySet<string> | undefined,
): PendingQuestion[] | undefined {
  if (run.status !== 'waiting' || open.size === 0) return undefined;
  const asked = (run.questions ?? []).filter((q) => q.kind === 'client_tool' && !q.answer && !answered?.has(q.id));
  const calls = [...open].map((callId) => asked.find((q) => q.callId === callId));
  return calls.every((q) => q !== undefined) ? (calls as PendingQuestion[]) : undefined;
}

/** The whole answer, as `streamRunAnswer` would stream it: chat text joins segments with a blank line. */
export async function collectRunAnswer(
  runs: AnswerSource,
  id: string,
  options: StreamRunAnswerOptions = {},
): Promise<{ segments: string[]; end: AnswerEnd }> {
  const segments: string[] = [];
  const answer = streamRunAnswer(runs, id, options);
  let next = await answer.next();
  for (; !next.done; next = await answer.next()) {
    if (next.value.start || segments.length === 0) segments.push(next.value.text);
    else segments[segments.length - 1] += next.value.text;
  }
  return { segments, end: next.value };
}
