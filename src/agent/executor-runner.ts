import type { ToolSpec } from '../core/index.js';
import { type AnyTool, createToolExecutor, type ParentRun, type ToolRegistry } from '../tools/index.js';
import type { AgentOptions, RunOptions } from './agent-options.js';
import { NEVER } from './link-abort.js';
import type { ToolRunner } from './tool-runner.js';

/**
 * Adapts the tool executor to the loop: one executor per run, over the run's own copy of the
 * registry, so a tool disabled after repeated failures stays enabled for the next run.
 */
export function executorRunner(
  registry: ToolRegistry,
  options: AgentOptions,
  run: RunOptions & { runId: string },
  parent?: ParentRun,
): ToolRunner {
  const forked = registry.fork();
  const executor = createToolExecutor({
    registry: forked,
    runId: run.runId,
    concurrency: options.toolConcurrency ?? 8,
    maxFailures: options.maxToolFailures,
    observationLimit: options.observationLimit,
    approve: run.approve ?? options.approve,
    ask: run.ask,
    parent,
  });
  return {
    names: () => forked.list().map((t: AnyTool) => t.name),
    list: () => forked.list(),
    specs: () => forked.specs() as ToolSpec[],
    isIdempotent: (name) => forked.get(name)?.idempotent === true,
    run: (calls, { signal, onStart, onEnd, onWait, beforeStart }) =>
      executor.executeNow(calls, {
        onWait,
        beforeStart,
        // A signal that can never fire is not passed on: listening to one costs about a µs per call.
        signal: signal === NEVER ? undefined : signal,
        onStart: onStart && ((r) => onStart({ id: r.callId, name: r.name, input: r.input }, r.tool ?? r.name, r.input)),
        onEnd,
      }),
  };
}
