import { z } from 'zod';
import { emptyStats, ForkError, Message, type RunStats, type RunUsage, type Step } from '../../core/index.js';
import type { Checkpoint, EditedPrompt, RunOptions } from '../run/index.js';

/**
 * The run a fork starts from: a checkpoint (the last one `onCheckpoint` got, or a run store's), or a
 * finished run's result with its input (`{ ...result, input }`).
 */
export type ForkSource = Pick<Checkpoint, 'runId' | 'input' | 'steps'> & Pick<Checkpoint, 'edited'>;

/** The conversation a fork's step `fromStep` sees instead of the one the run had, or how to change that one. */
export type ForkMessages = Message[] | ((seen: Message[]) => Message[]);

/** Options for `agent.fork`: where to start again, what the model sees there, and the new run's own options. */
export type ForkOptions = Omit<RunOptions, 'resume'> & {
  /** The step to run again: steps before it are carried over as they were (no model call), it and the rest run anew. */
  fromStep: number;
  /**
   * What the model sees at `fromStep`: a message list that replaces the conversation up to there
   * (system prompt included), or a function of the messages as the agent projects them from the run.
   * Default: the run's own conversation.
   */
  messages?: ForkMessages;
};

const EditedMessages = z.array(Message).min(1, 'give at least one message');

/**
 * The first checkpoint of a fork of `source`: its steps before `fromStep` (copies: the source is never
 * changed) with their usage, where it came from, and the edited messages if any. A run resumed from it
 * goes on at step `fromStep`. Throws a `ForkError` for a missing run, a step it does not have or
 * messages that are not messages.
 */
export function forkCheckpoint(
  source: ForkSource | undefined,
  request: {
    runId: string;
    fromStep: number;
    /** A list (checked here: it may come off the wire), or a function of `seen()`. */
    messages?: unknown;
    /** The messages the model saw at `fromStep` (`messagesBefore`), for a `messages` function. */
    seen?: () => Message[];
  },
): Checkpoint {
  if (!source) {
    throw new ForkError({
      code: 'not_found',
      message:
        'There is no run to fork: pass its last checkpoint, or its result with its input ({ ...result, input }).',
    });
  }
  const { fromStep } = request;
  const last = lastForkStep(source.steps);
  if (!Number.isInteger(fromStep) || fromStep < 0 || fromStep > last) {
    throw new ForkError({
      code: 'invalid_input',
      message: `fromStep must be a step of run "${source.runId}", 0 to ${last} (got ${String(fromStep)}).`,
    });
  }
  const steps = structuredClone(source.steps.slice(0, fromStep));
  const checkpoint: Checkpoint = {
    runId: request.runId,
    input: source.input,
    steps,
    usage: carriedUsage(steps),
    stats: carriedStats(steps),
    forkedFrom: { runId: source.runId, fromStep },
  };
  const { messages, seen } = request;
  if (typeof messages === 'function' && !seen) {
    throw new ForkError({ code: 'invalid_input', message: 'An edit function needs the messages it edits (seen).' });
  }
  const edit = typeof messages === 'function' ? messages(structuredClone(seen!())) : messages;
  const edited = edit === undefined ? keptEdit(source, fromStep) : editOf(edit, fromStep);
  if (edited) checkpoint.edited = edited;
  return checkpoint;
}

/**
 * The messages the model saw at step `fromStep` of `source`, as projected by `project` after `head`
 * (the system prompt, earlier turns and question), or after the source's own edited messages.
 */
export function messagesBefore(
  source: ForkSource,
  fromStep: number,
  { head, project }: { head: Message[]; project: (step: Step) => Message[] },
): Message[] {
  const edit = keptEdit(source, fromStep);
  const before = edit ? edit.messages : head;
  return [...before, ...source.steps.slice(edit?.steps ?? 0, fromStep).flatMap(project)];
}

/** The last step a run can be forked from: any of its steps, or the one after them when it had not answered yet. */
function lastForkStep(steps: readonly Step[]): number {
  return steps.at(-1)?.kind === 'final' ? steps.length - 1 : steps.length;
}

/** A fork of a fork keeps its source's edited messages when they stand for steps before `fromStep` only. */
function keptEdit(source: ForkSource, fromStep: number): EditedPrompt | undefined {
  return source.edited && source.edited.steps <= fromStep ? source.edited : undefined;
}

function editOf(messages: unknown, fromStep: number): EditedPrompt {
  const parsed = EditedMessages.safeParse(messages);
  if (!parsed.success) {
    throw new ForkError({
      code: 'invalid_input',
      message: `The edited messages are not a message list: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`,
    });
  }
  return { messages: parsed.data, steps: fromStep };
}

/** The carried steps' own model calls: one each, with the tokens each reported. */
function carriedUsage(steps: readonly Step[]): RunUsage {
  const usage: RunUsage = { promptTokens: 0, completionTokens: 0, llmCalls: steps.length };
  for (const step of steps) {
    if (!step.usage) continue;
    usage.promptTokens += step.usage.promptTokens;
    usage.completionTokens += step.usage.completionTokens;
    if (step.usage.estimated) usage.estimated = true;
  }
  return usage;
}

function carriedStats(steps: readonly Step[]): RunStats {
  const stats = emptyStats();
  stats.llmCalls = steps.length;
  for (const step of steps) {
    stats.toolCalls += step.toolCalls.length;
    stats.toolErrors += step.toolCalls.filter((call) => !call.ok).length;
    if (step.kind === 'invalid') stats.invalidReplies += 1;
  }
  return stats;
}
