import type { Language } from '../../protocols/index.js';
import type { StepResult } from './step-result.js';

/** What the prompts show of the run so far. */
export interface PlanView {
  input: string;
  plan: readonly string[];
  results: readonly StepResult[];
}

interface PlanPrompts {
  planSystem(maxPlanSteps: number, tools: string): string;
  planCorrection(reason: string, maxPlanSteps: number): string;
  stepTask(view: PlanView, index: number): string;
  replanSystem(maxPlanSteps: number): string;
  replanQuestion(view: PlanView, next: number): string;
  replanCorrection(reason: string): string;
  answerSystem: string;
  answerQuestion(view: PlanView): string;
  labels: { task: string; plan: string; results: string; none: string; failed: string };
}

const EN: PlanPrompts = {
  planSystem: (max, tools) =>
    [
      'You plan how to solve a task. Break it into at most',
      `${max} short steps, in order; each step is one instruction an assistant with these tools can carry out alone:`,
      tools,
      'Reply with JSON only, in this shape: {"steps": ["first step", "second step"]}',
    ].join('\n'),
  planCorrection: (reason, max) =>
    `Your plan could not be used. ${reason} Reply again with JSON only: {"steps": [...]} with 1 to ${max} non-empty steps.`,
  stepTask: (view, index) =>
    [
      context(EN, view),
      `Now do step ${index + 1} only: ${view.plan[index]}`,
      'Answer with the result of this step.',
    ].join('\n\n'),
  replanSystem: (max) =>
    [
      'You check the progress of a plan after each step and decide what happens next. Reply with JSON only, one of:',
      '{"action": "continue"}  — the remaining plan is still right',
      `{"action": "replan", "steps": ["..."], "reason": "..."}  — replace the remaining steps (1 to ${max}), e.g. to work around a failed step`,
      '{"action": "finish", "answer": "..."}  — the task is solved; give the final answer',
    ].join('\n'),
  replanQuestion: (view, next) =>
    [
      context(EN, view),
      next < view.plan.length
        ? `Remaining steps:\n${numbered(view.plan.slice(next), next)}`
        : 'No steps remain: continue to write the answer, replan to add steps, or finish.',
    ].join('\n\n'),
  replanCorrection: (reason) => `Your decision could not be read. ${reason}`,
  answerSystem: 'You write the final answer to a task from the results of the steps that were carried out.',
  answerQuestion: (view) => `${context(EN, view)}\n\nWrite the final answer to the task.`,
  labels: { task: 'Task', plan: 'Plan', results: 'Results so far', none: '(none yet)', failed: 'did not finish' },
};

const ZH: PlanPrompts = {
  planSystem: (max, tools) =>
    [
      `你负责为任务制定计划。把任务拆成最多 ${max} 个按顺序执行的简短步骤；每一步都是一个拥有以下工具的助手可以独立完成的指令：`,
      tools,
      '只用 JSON 回复，格式为：{"steps": ["第一步", "第二步"]}',
    ].join('\n'),
  planCorrection: (reason, max) =>
    `你的计划无法使用。${reason} 请只用 JSON 重新回复：{"steps": [...]}，包含 1 到 ${max} 个非空步骤。`,
  stepTask: (view, index) =>
    [context(ZH, view), `现在只执行第 ${index + 1} 步：${view.plan[index]}`, '请回答这一步的结果。'].join('\n\n'),
  replanSystem: (max) =>
    [
      '你在每一步之后检查计划的进展并决定下一步。只用 JSON 回复，以下之一：',
      '{"action": "continue"}  —— 剩余计划仍然正确',
      `{"action": "replan", "steps": ["..."], "reason": "..."}  —— 替换剩余步骤（1 到 ${max} 个），例如绕过失败的步骤`,
      '{"action": "finish", "answer": "..."}  —— 任务已完成，给出最终答案',
    ].join('\n'),
  replanQuestion: (view, next) =>
    [
      context(ZH, view),
      next < view.plan.length
        ? `剩余步骤：\n${numbered(view.plan.slice(next), next)}`
        : '没有剩余步骤：continue 表示撰写答案，replan 表示增加步骤，或 finish。',
    ].join('\n\n'),
  replanCorrection: (reason) => `无法读取你的决定。${reason}`,
  answerSystem: '你根据已执行步骤的结果撰写任务的最终答案。',
  answerQuestion: (view) => `${context(ZH, view)}\n\n请写出任务的最终答案。`,
  labels: { task: '任务', plan: '计划', results: '目前的结果', none: '（暂无）', failed: '未完成' },
};

/** The planner's prompts in a language. Prompts are data: change them here, not in the runner. */
export function planPrompts(language: Language): PlanPrompts {
  return language === 'zh' ? ZH : EN;
}

function context(prompts: PlanPrompts, view: PlanView): string {
  const { labels } = prompts;
  const results = view.results.length
    ? view.results
        .map((r, i) => {
          const status = r.status === 'done' ? '' : ` [${labels.failed}: ${r.status}${r.error ? `, ${r.error}` : ''}]`;
          return `${i + 1}. ${r.step}${status}\n${r.output || labels.none}`;
        })
        .join('\n')
    : labels.none;
  return [
    `${labels.task}: ${view.input}`,
    `${labels.plan}:\n${numbered(view.plan)}`,
    `${labels.results}:\n${results}`,
  ].join('\n\n');
}

function numbered(steps: readonly string[], from = 0): string {
  return steps.map((step, i) => `${from + i + 1}. ${step}`).join('\n');
}
