import { type Checkpoint, forkCheckpoint } from '../agent/index.js';
import { isThinkflowError, type Message } from '../core/index.js';
import type { RunFork } from './run-record.js';
import type { IdempotencyRequest, StartRequest, StartResult } from './run-service.js';
import type { RunStore } from './stores/run-store.js';

/** What forks a stored agent run (POST /v1/runs/:id/fork): the step to run again from, and what the model sees there. */
export interface ForkRequest {
  fromStep: number;
  /** Replaces the conversation the model sees at `fromStep` (system prompt included). */
  messages?: Message[];
  /** The principal forking it; the fork is theirs. */
  owner?: string;
  idempotency?: IdempotencyRequest;
}

/** A fork started (as a start is), or why not: no such run, or a step or messages it cannot start from. */
export type ForkResult =
  | StartResult
  | { ok: false; reason: 'unknown_run' }
  | { ok: false; reason: 'invalid_fork'; message: string };

/** A fork's first checkpoint, written under the new run's id before the run starts. */
export type ForkStart = Omit<Checkpoint, 'runId'>;

/**
 * The start request of a fork of run `id`: the source's agent, input, history and caller options, and
 * the fork's first checkpoint. Its steps are the ended run's result's (a checkpoint is deleted at the
 * end), or an unfinished run's last checkpoint's. The source is only read.
 */
export async function forkStartRequest(
  store: Pick<RunStore, 'getRun' | 'loadCheckpoint'>,
  id: string,
  request: ForkRequest,
): Promise<{ ok: true; start: StartRequest } | Exclude<ForkResult, { ok: true }>> {
  const source = await store.getRun(id);
  if (!source) return { ok: false, reason: 'unknown_run' };
  const steps = source.result?.steps ?? (await store.loadCheckpoint(id))?.steps ?? [];
  let fork: Checkpoint;
  try {
    fork = forkCheckpoint(
      { runId: id, input: source.input, steps, edited: source.forkedFrom?.edited },
      { runId: '', fromStep: request.fromStep, messages: request.messages },
    );
  } catch (error) {
    if (isThinkflowError(error)) return { ok: false, reason: 'invalid_fork', message: error.message };
    throw error;
  }
  const { runId: _, ...checkpoint } = fork;
  const start: StartRequest = {
    agent: source.agent,
    input: source.input,
    history: source.history,
    caller: source.caller,
    source: 'api',
    owner: request.owner,
    idempotency: request.idempotency,
    fork: checkpoint,
  };
  return { ok: true, start };
}

/** The record's account of where a fork came from, from its first checkpoint. */
export function runForkOf(fork: ForkStart): RunFork | undefined {
  if (!fork.forkedFrom) return undefined;
  return fork.edited ? { ...fork.forkedFrom, edited: fork.edited } : { ...fork.forkedFrom };
}
