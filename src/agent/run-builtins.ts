import type { Step, ToolSpec } from '../core/index.js';
import type { AnyTool } from '../tools/index.js';
import type { LoopConfig, OfferContext, RunBuiltin } from './loop-config.js';

export type { OfferContext, RunBuiltin } from './loop-config.js';

/**
 * Registers the built-ins in the run's registry as hidden tools (callable, never listed, so the run's
 * tool list keeps its identity and the router's index and the prompt cache stay warm); a tool of the
 * user's with the same name wins.
 */
export function registerBuiltins(config: Pick<LoopConfig, 'tools'>, builtins: RunBuiltin[]): RunBuiltin[] {
  const registry = config.tools.registry;
  return builtins.filter((b) => {
    if (registry.get(b.tool.name)) return false;
    registry.register(b.tool, { hidden: true });
    return true;
  });
}

/** The tool as the model is offered it. */
export function builtinSpec(tool: AnyTool): ToolSpec {
  return Object.freeze({ name: tool.name, description: tool.description, parameters: tool.parameters });
}

/** The step's tools plus the built-ins offered at this step (the same array when none is). */
export function withBuiltins(offer: OfferContext): readonly ToolSpec[] {
  const offered = (offer.ctx.config.builtins ?? []).filter((b) => b.offered(offer));
  return offered.length === 0 ? offer.specs : [...offer.specs, ...offered.map((b) => b.spec)];
}

/** The successful calls of one tool in the run's steps, oldest first. */
export function callsOf(steps: readonly Step[], tool: string): Step['toolCalls'] {
  return steps.flatMap((s) => s.toolCalls.filter((c) => c.ok && (c.tool ?? c.name) === tool));
}
