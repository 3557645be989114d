import type { Message, RunResult } from '../../core/index.js';
import { episodeFromRun, type MemoryHit, recallMemories, reflectionFromRun } from '../../memory/index.js';
import type { MemoryOptions, RunOptions } from '../run/index.js';
import { event, type RunScope } from '../run/index.js';
import { questionMessage } from './question-message.js';

/** Recalls the top-k memories for the question: a prompt block, and the hits for the `memory_recall` event. */
export async function recallFor(
  memory: MemoryOptions | undefined,
  input: string,
  signal?: AbortSignal,
): Promise<{ block: string; memories: ReturnType<typeof toEventMemory>[]; warning?: string }> {
  if (!memory || memory.k === 0) return { block: '', memories: [] };
  try {
    const recall = await recallMemories(memory.store, input, { k: memory.k ?? 5, kinds: memory.kinds, signal });
    return { block: recall.block, memories: recall.memories.map(toEventMemory) };
  } catch (error) {
    // A memory store that fails must not stop the run: it goes on without recalled memories.
    return { block: '', memories: [], warning: `Could not recall memories: ${(error as Error).message}` };
  }
}

function toEventMemory(hit: MemoryHit) {
  return { id: hit.memory.id, kind: hit.memory.kind, text: hit.memory.text, score: hit.score };
}

/** After a run: stores an episode (success) or a lesson (failure), emitting `memory_store`. A store failure is a warning, never a failed run. */
export async function storeOutcome(memory: MemoryOptions | undefined, result: RunResult, { state, emit }: RunScope) {
  if (!memory) return;
  const summary = {
    input: state.input,
    output: result.output,
    status: result.status,
    steps: result.steps,
    error: result.error,
  };
  const item =
    result.status === 'done'
      ? memory.storeEpisodes !== false
        ? episodeFromRun(summary)
        : undefined
      : memory.storeReflections
        ? reflectionFromRun(summary)
        : undefined;
  if (!item) return;
  try {
    const stored = await memory.store.add(item);
    emit(event(state, 'memory_store', { id: stored.id, kind: stored.kind, text: stored.text }));
  } catch (error) {
    emit(
      event(state, 'warning', {
        code: 'memory_store',
        message: `Could not store the run in memory: ${(error as Error).message}`,
      }),
    );
  }
}

/** The turn to append to a session: the question, then the answer when there is one. */
export function sessionTurn(input: string, result: RunResult, attachments?: RunOptions['attachments']): Message[] {
  const question = questionMessage(input, attachments);
  return result.output ? [question, { role: 'assistant', content: result.output }] : [question];
}
