import { type Message, type ToolSpec, withFields } from '../core/index.js';
import type { Emit, LoopConfig } from './loop-config.js';
import { event, type RunState } from './run-state.js';

export type Router = (query: string, tools: readonly ToolSpec[]) => Promise<ToolSpec[]>;

/**
 * With many tools, picks this step's subset (from the question and the latest thought and
 * observation), emits `tools_select`, and returns the system message and request tools to use.
 */
export async function routeStepTools(
  router: Router,
  config: LoopConfig,
  state: RunState,
  index: number,
  emit: Emit,
): Promise<{ system: Message; tools: ToolSpec[] | undefined; specs: ToolSpec[] }> {
  const all = config.tools.specs();
  const last = state.steps.at(-1);
  const query = [state.input, last?.thought ?? '', (last?.observation ?? '').slice(0, 500)].join(' ');
  const chosen = await router(query, all);
  emit(event(state, 'tools_select', { step: index, tools: chosen.map((t) => t.name), from: all.length }));
  const prompt = withFields(config.prompt, { tools: chosen });
  return {
    system: { role: 'system', content: config.protocol.systemPrompt(prompt) },
    tools: config.protocol.requestTools(prompt),
    specs: chosen,
  };
}
