import { z } from 'zod';
import { type AnyTool, defineTool } from '../tools/index.js';
import type { ToolLanguage } from './tool-texts.js';

const Todo = z.object({
  content: z.string().min(1).describe('What to do, in one line.'),
  status: z.enum(['pending', 'in_progress', 'done']).describe('pending, in_progress (one at a time) or done.'),
});

/** One item of the plan a `todos` tool holds. */
export type TodoItem = z.infer<typeof Todo>;

/**
 * `todos`: the model's plan for a task, rewritten whole on each call (mark one item `in_progress`, then
 * `done`). Each new list is a `todos_update` event in the run's stream, and `onChange` sees it too; the tool returns
 * the list as text.
 */
export function todosTool(options: { language?: ToolLanguage; onChange?: (todos: TodoItem[]) => void } = {}): AnyTool {
  const zh = options.language === 'zh';
  return defineTool({
    name: 'todos',
    description: zh
      ? '记录并更新任务计划：每次传入完整列表；同一时间只有一项为 in_progress，完成后标为 done。'
      : 'Write and update the plan for the task: pass the whole list each time; keep one item in_progress at a time and mark items done as you finish them.',
    input: z.object({ todos: z.array(Todo).describe(zh ? '完整的计划列表。' : 'The whole plan.') }),
    run: ({ todos }, ctx) => {
      ctx.parent?.emit({ type: 'todos_update', runId: ctx.runId, ts: Date.now(), callId: ctx.callId, todos });
      options.onChange?.(todos);
      const mark = { pending: '[ ]', in_progress: '[~]', done: '[x]' } as const;
      return (
        todos.map((t, i) => `${i + 1}. ${mark[t.status]} ${t.content}`).join('\n') ||
        (zh ? '（空计划）' : '(empty plan)')
      );
    },
  });
}
