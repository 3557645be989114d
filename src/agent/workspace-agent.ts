import { defaultBudgetFor } from '../memory/index.js';
import type { Workspace } from '../workspace/index.js';
import { todosTool, workspaceSkills } from '../workspace/index.js';
import { Agent } from './agent.js';
import type { AgentOptions } from './run/index.js';

/** Options for `workspaceAgent()`: an Agent's options with its workspace required. */
export interface WorkspaceAgentOptions<T = unknown> extends AgentOptions<T> {
  workspace: Workspace;
}

/** The prompt budget of a 128k-token context window, for a model that does not state its own. */
const HARNESS_BUDGET = defaultBudgetFor({ contextWindow: 128_000 });

const HARNESS = {
  en: 'Work like an engineer at a terminal: for a task of several steps, write the plan with `todos` first and keep it current; hand a self-contained sub-task to `task` (a helper with a fresh context on the same files) and use its summary; finish with what you changed and what you checked.',
  zh: '像工程师在终端前那样工作：多步的任务先用 `todos` 写下计划并随时更新；把独立的子任务交给 `task`（一个在同一工作区、上下文全新的助手），使用它返回的总结；最后说明你改了什么、检查了什么。',
};

/**
 * A harness for work in a workspace: the workspace tools, instructions for working there, a `todos`
 * tool holding the plan, and a `task` tool that runs a sub-agent with a fresh context on the same
 * workspace and returns its summary. Skills come from `options.skills`, or else from the workspace's
 * `.skills/` folder (read on the first run). Compaction is on by default: a model that does not state its
 * context window is given the budget of a 128k-token one (`context.budgetTokens` sets another,
 * `context.compaction: false` turns it off).
 *
 * @example
 * const agent = workspaceAgent({ model, workspace: await virtualWorkspace({ files }) });
 */
export function workspaceAgent<T = unknown>(options: WorkspaceAgentOptions<T>): Agent<T> {
  const language = options.language ?? 'en';
  const helper = new Agent({
    model: options.model,
    workspace: options.workspace,
    workspacePolicy: options.workspacePolicy,
    language,
    maxSteps: options.maxSteps,
    instructions:
      language === 'zh'
        ? '完成交给你的子任务，最后用几句话总结结果。'
        : 'Do the sub-task you are given, then summarise the result in a few sentences.',
  });
  const task = helper.asTool({
    name: 'task',
    description:
      language === 'zh'
        ? '把一个独立的子任务交给助手（同一工作区、全新的上下文），返回它的总结。任务描述要包含它需要的一切。'
        : 'Hand a self-contained sub-task to a helper (same workspace, fresh context); returns its summary. Say everything it needs in the task.',
  });
  return new Agent<T>({
    ...options,
    skills: options.skills ?? (() => workspaceSkills(options.workspace)),
    context: {
      ...options.context,
      budgetTokens: options.context?.budgetTokens ?? defaultBudgetFor(options.model) ?? HARNESS_BUDGET,
    },
    instructions: [HARNESS[language === 'zh' ? 'zh' : 'en'], options.instructions].filter(Boolean).join('\n\n'),
    tools: [...(options.tools ?? []), todosTool({ language: language === 'zh' ? 'zh' : 'en' }), task],
  });
}
