import { type Checkpoint, forkCheckpoint } from '../../agent/index.js';
import { isThinkflowError } from '../../core/index.js';
import type { ForkRequest, ForkResult, RunStore, StartRequest } from '../records/index.js';

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
