import { type AnswerPartReader, createAnswerPartReader } from '../../protocols/index.js';
import type { Answer, AnswerResult, PendingQuestion, RunService } from '../records/index.js';

/** A person's answer to the question one tool call asked. */
export interface CallAnswer {
  callId: string;
  answer: Answer;
}

/** Where a protocol adapter picks up a run it left waiting on a question. */
export interface RunContinuation {
  /** Holds the answer parts already sent, so the next ones follow on (segment ids, known calls). */
  reader: AnswerPartReader;
  /** The sequence number to follow the run's events after. */
  after: number;
}

/**
 * Answers the questions a waiting run asked for the given calls (matched by the call id the
 * question carries); `not_found` when there is no such run, `no_question` when a call has no open
 * question (answered already, or the run went on).
 */
export async function answerCalls(
  runs: Pick<RunService, 'get' | 'answer' | 'changed'>,
  runId: string,
  answers: CallAnswer[],
): Promise<AnswerResult> {
  for (const { callId, answer } of answers) {
    const question = await openQuestion(runs, runId, callId);
    if (question === 'not_found') return 'not_found';
    if (!question) return 'no_question';
    const outcome = await runs.answer(runId, { ...answer, questionId: question.id });
    if (outcome !== 'answered') return outcome;
  }
  return 'answered';
}

/** Polls for this long at most for a question whose event is logged but whose record is not yet written. */
const QUESTION_WAIT_MS = 2000;

/** The open question of one call, once the run has stored it (its event is logged just before). */
async function openQuestion(
  runs: Pick<RunService, 'get' | 'changed'>,
  runId: string,
  callId: string,
): Promise<PendingQuestion | undefined | 'not_found'> {
  const until = Date.now() + QUESTION_WAIT_MS;
  for (;;) {
    const run = await runs.get(runId);
    if (!run) return 'not_found';
    const question = run.questions?.find((q) => q.callId === callId && !q.answer);
    if (question || run.status !== 'running' || Date.now() > until) return question;
    await runs.changed(runId, 100);
  }
}

/**
 * Reads a run's log up to the last question asked for one of `callIds` (the point where an adapter
 * stopped its stream), feeding a fresh answer reader, so the stream that continues after the answer
 * goes on where the last one stopped. Undefined when the run never asked about those calls.
 */
export async function continueAfterQuestion(
  runs: Pick<RunService, 'events'>,
  runId: string,
  callIds: readonly string[],
): Promise<RunContinuation | undefined> {
  const events = await runs.events(runId, 0);
  const at = events.findLastIndex(
    ({ event }) => event.type === 'approval_request' && event.runId === runId && callIds.includes(event.callId),
  );
  if (at < 0) return undefined;
  const reader = createAnswerPartReader({ runId });
  for (const { event } of events.slice(0, at + 1)) reader.read(event);
  return { reader, after: events[at].seq };
}
