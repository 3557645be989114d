import type { AgentEvent } from '../core/index.js';
import type { RunRecord } from './run-record.js';
import { followEvents, type RunService } from './run-service.js';

const STEP_BREAK = '\n\n';

/**
 * Follows a run's event log and yields the text of its answer while the run goes on, then returns the
 * ended run. With the `native` protocol the model's streamed text (`model_delta`) is what the agent
 * says, so it goes out live, steps apart by a blank line; the `json` and `react` protocols stream
 * their scaffolding (`Thought:`, `Action:`), so only their final answer goes out. Whatever part of the
 * final answer was not streamed (a model that does not stream, a rewritten answer) follows at `final`.
 * Returns undefined when the signal aborts first.
 */
export async function* streamRunAnswer(
  runs: Pick<RunService, 'events' | 'changed' | 'status' | 'wait'>,
  id: string,
  signal?: AbortSignal,
): AsyncGenerator<string, RunRecord | undefined> {
  let live = false;
  let sentAny = false;
  // The text streamed for the current model call, to tell what of the final answer is still unsent.
  let callText = '';

  function* send(piece: string): Generator<string> {
    // A call's leading whitespace (or a whitespace-only reply before a tool call) is not worth a step break.
    const text = callText === '' ? piece.trimStart() : piece;
    if (text === '') return;
    if (callText === '' && sentAny) yield STEP_BREAK;
    callText += text;
    sentAny = true;
    yield text;
  }

  function* onEvent(event: AgentEvent): Generator<string> {
    switch (event.type) {
      case 'run_start':
        live = event.protocol === 'native';
        return;
      case 'model_request':
        callText = '';
        return;
      case 'model_delta':
        if (live) yield* send(event.text);
        return;
      case 'final': {
        const { output } = event;
        if (callText.trim() === output.trim()) return;
        if (output.startsWith(callText)) {
          const rest = output.slice(callText.length);
          // Continues the streamed text, so no step break before it.
          if (callText !== '') {
            callText += rest;
            if (rest !== '') yield rest;
          } else yield* send(rest);
          return;
        }
        callText = '';
        yield* send(output);
        return;
      }
    }
  }

  for await (const { event } of followEvents(runs, id, 0, () => signal?.aborted === true)) {
    // Events of agents this run called (nested under it) are not its answer.
    if (event.runId === id) yield* onEvent(event);
  }
  return signal?.aborted ? undefined : runs.wait(id, signal);
}
