import { z } from 'zod';
import type { AgentEvent, RunResult, Step } from '../../core/index.js';
import { type AnyTool, defineTool } from '../../tools/index.js';
import type { Handoff, RunOptions } from '../run/index.js';
import { addChildUsage, event, type RunScope } from '../run/index.js';

/** A handoff's tool, the handoff, and the name of the agent it hands to. */
type HandoffTool = { tool: AnyTool; handoff: Handoff; name: string };

const NO_HANDOFFS: ReadonlyMap<string, HandoffTool> = new Map();

/** The `transfer_to_<name>` tools for an agent's handoffs, by tool name. */
export function handoffTools(handoffs: Handoff[] | undefined): ReadonlyMap<string, HandoffTool> {
  // Most agents have none, and are often made per request: one shared empty table for them all.
  if (!handoffs?.length) return NO_HANDOFFS;
  const tools = new Map<string, HandoffTool>();
  for (const handoff of handoffs) {
    // Letters of every script are kept (tool names take them; a provider that refuses them gets an alias):
    // two agents named in Chinese were both `transfer_to___`, and the second replaced the first.
    const base = [
      ...(handoff.name ?? handoff.agent.name ?? `agent_${tools.size + 1}`).replace(/[^\p{L}\p{M}\p{N}_-]/gu, '_'),
    ]
      .slice(0, 100)
      .join('');
    let name = base;
    for (let n = 2; tools.has(`transfer_to_${name}`); n++) name = `${base}_${n}`;
    const tool = defineTool({
      name: `transfer_to_${name}`,
      description: handoff.description ?? `Hand the conversation to the ${name} agent, which will answer the user.`,
      input: z.object({ reason: z.string().optional().describe('Why this agent should take over') }),
      run: () => `Transferring to ${name}.`,
    });
    tools.set(tool.name, { tool, handoff, name });
  }
  return tools;
}

/**
 * Passes the conversation to the handoff's agent: it gets the question, the earlier turns and a
 * note of what was done so far; its events nest under this run and its answer becomes this run's.
 */
export async function runHandoff(
  target: { handoff: Handoff; name: string },
  source: { from: string | undefined; history: RunOptions['history'] },
  step: Step,
  { state, signal, emit }: RunScope,
): Promise<RunResult> {
  const { from } = source;
  const call = step.toolCalls.find((c) => c.name.toLowerCase().includes(target.name.toLowerCase()));
  const reason = typeof call?.input === 'object' && call.input ? (call.input as { reason?: string }).reason : undefined;
  emit(event(state, 'handoff', { step: step.index, from, to: target.name, reason }));
  const done = state.steps
    .flatMap((s) => s.toolCalls.filter((c) => !c.name.startsWith('transfer_to_')).map((c) => `${c.name}: ${c.output}`))
    .join('\n');
  const history = [
    ...(source.history ?? []),
    ...(done
      ? [
          {
            role: 'user' as const,
            content: `Context from ${from ?? 'the previous agent'} before the handoff:\n${done}`,
          },
        ]
      : []),
  ];
  const result = await target.handoff.agent.run(state.input, {
    signal,
    history,
    parentRunId: state.runId,
    onEvent: (e: AgentEvent) => emit(e),
  });
  addChildUsage(state, result.usage);
  return result;
}
