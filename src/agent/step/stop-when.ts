import { costOf } from '../../llm/index.js';
import { checkStopConditions, type StopCondition, type StopReason, stepLimitOf } from '../guards/index.js';
import { type AgentOptions, event, type RunContext } from '../run/index.js';

const conditionsOf = (stopWhen: AgentOptions['stopWhen']): readonly StopCondition[] =>
  stopWhen === undefined ? [] : Array.isArray(stopWhen) ? stopWhen : [stopWhen];

/** The run's step limit: the `maxSteps` option, else the lowest `maxSteps(n)` in `stopWhen`, else 10. */
export function stepLimit(options: AgentOptions): number {
  return options.maxSteps ?? stepLimitOf(conditionsOf(options.stopWhen)) ?? 10;
}

/**
 * Checks the agent's `stopWhen` conditions after step `index`: a reason to stop, an answer to end with
 * (`calledTool`: the `final` event goes out here), or undefined. Without conditions it costs one check.
 */
export function stopWhen(ctx: RunContext, index: number): StopReason | { answer: string } | undefined {
  const { stopWhen: given } = ctx.config.options;
  if (given === undefined) return undefined;
  const { state, config, emit } = ctx;
  const stop = checkStopConditions(conditionsOf(given), {
    steps: state.steps,
    usage: state.usage,
    elapsedMs: Date.now() - state.startedAt,
    get costUsd() {
      return costOf(config.model.id, state.usage);
    },
  });
  if (stop?.status !== 'done') return stop;
  emit(event(state, 'final', { step: index, output: stop.output }));
  return { answer: stop.output };
}
