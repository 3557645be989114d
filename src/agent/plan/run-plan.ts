import type { RunResult } from '../../core/index.js';
import { budgetGuard, type StopReason } from '../guards/index.js';
import { ABORTED, createRunState, endRun, event, failure, fanOut, linkAbort, remainingBudget } from '../run/index.js';
import type { PlannerCall } from './ask-planner.js';
import { decideNext } from './decide-next.js';
import { executeStep } from './execute-step.js';
import type { PlanAndExecuteOptions, PlanRunOptions } from './plan-options.js';
import type { StepResult } from './step-result.js';
import { writeAnswer } from './write-answer.js';
import { writePlan } from './write-plan.js';

/**
 * One plan-and-execute run, top to bottom: write the plan, then for each step run the executor
 * and ask the replanner (continue, replan, finish); when the plan runs out, write the answer.
 * Abort, the budgets and maxPlanSteps are checked before every executor run and planner call.
 */
export async function runPlan(input: string, options: PlanAndExecuteOptions, run: PlanRunOptions): Promise<RunResult> {
  const { planner, executor } = options;
  const replanner = options.replanner ?? planner;
  const maxPlanSteps = options.maxPlanSteps ?? 8;
  const language = options.language ?? 'en';
  const budget = run.budget ?? options.budget;
  const state = createRunState({ runId: run.runId ?? crypto.randomUUID(), input, parentRunId: run.parentRunId });
  const emit = fanOut(run.onEvent ? [run.onEvent] : []);
  const abort = linkAbort(run.signal, budget?.maxDurationMs);
  const call: PlannerCall = { state, emit, signal: abort.signal };
  const tools = executor.tools.specs();
  const check = (): StopReason | undefined =>
    (abort.signal.aborted ? (abort.reason() ?? ABORTED) : undefined) ??
    budgetGuard(state.usage, state.startedAt, budget);

  emit(
    event(state, 'run_start', {
      input,
      agent: options.name,
      model: planner.id,
      protocol: 'plan_and_execute',
      tools: tools.map((t) => t.name),
    }),
  );

  let plan: string[] = [];
  const results: StepResult[] = [];
  let stop: StopReason | undefined;
  let answer: string | undefined;
  try {
    // 1. Plan.
    const toolList = tools.map((t) => `- ${t.name}: ${t.description}`).join('\n') || '- (no tools)';
    const written = await writePlan(planner, input, { maxPlanSteps, tools: toolList, language }, call);
    if (!written.ok) stop = { status: 'failed', code: 'invalid_plan', message: written.reason };
    else {
      plan = written.steps;
      emit(event(state, 'plan_create', { plan }));
    }

    // 2. Execute each step, then let the replanner continue, revise or finish.
    while (!stop && answer === undefined && results.length < plan.length) {
      stop =
        check() ??
        (results.length >= maxPlanSteps
          ? {
              status: 'max_steps',
              code: 'max_plan_steps',
              message: `The run executed ${maxPlanSteps} plan steps (maxPlanSteps) and the plan was not done.`,
            }
          : undefined);
      if (stop) break;
      const view = { input, plan, results };
      const { result } = await executeStep(
        executor,
        view,
        { index: results.length, language, remaining: remainingBudget(budget, state) },
        call,
      );
      results.push(result);
      stop = check();
      if (stop) break;
      const decision = await decideNext(replanner, view, { maxPlanSteps, language }, call);
      if (decision.action === 'finish') answer = decision.answer;
      else if (decision.action === 'replan') {
        plan = [...plan.slice(0, results.length), ...decision.steps];
        emit(event(state, 'plan_update', { plan, reason: decision.reason }));
      }
    }

    // 3. Write the answer from the results (also the best answer so far at max_steps).
    if (answer === undefined && (!stop || stop.status === 'max_steps')) {
      const over = check();
      if (over) stop = over;
      else answer = await writeAnswer(planner, { input, plan, results }, language, call);
    }
  } catch (error) {
    stop = abort.signal.aborted ? (abort.reason() ?? ABORTED) : failure(error);
  } finally {
    abort.dispose();
  }

  const output = answer ?? '';
  if (!stop) emit(event(state, 'final', { step: results.length, output }));
  return endRun(call, { stop, output });
}
