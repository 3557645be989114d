import type { Step, ToolSpec } from '../../core/index.js';
import type { AnyTool } from '../../tools/index.js';
import type { OfferContext, RunBuiltin, RunContext } from '../run/index.js';

export type { OfferContext, RunBuiltin } from '../run/index.js';

/** The tool as the model is offered it. */
export function builtinSpec(tool: AnyTool): ToolSpec {
  return Object.freeze({ name: tool.name, description: tool.description, parameters: tool.parameters });
}

/**
 * The built-ins a run may offer: those whose name no tool of the user's has (the user's tool wins).
 * Nothing is made or registered yet (see `withBuiltins`).
 */
export function runBuiltins(registry: { get(name: string): unknown }, builtins: RunBuiltin[]): RunBuiltin[] {
  return builtins.filter((b) => !registry.get(b.name));
}

/**
 * The step's tools plus the built-ins offered at this step (the same array when none is). A built-in
 * offered for the first time is made and registered in the run's registry as a hidden tool (callable,
 * never listed, so the run's tool list keeps its identity and the router's index and the prompt cache
 * stay warm).
 */
export function withBuiltins(offer: OfferContext): readonly ToolSpec[] {
  const builtins = offer.ctx.config.builtins;
  if (!builtins?.length) return offer.specs;
  // Most steps offer none: no array is made for them.
  let offered: ToolSpec[] | undefined;
  for (const b of builtins) {
    if (!b.offered(offer)) continue;
    offered ??= [...offer.specs];
    offered.push(registered(offer.ctx, b));
  }
  return offered ?? offer.specs;
}

/**
 * Registers, before a resumed run finishes its pending step, the built-ins offered now and those its
 * pending calls name: they were offered when the step was asked (a routed run's `search_tools`).
 */
export function registerOffered(ctx: RunContext, pendingNames: readonly string[] = []): void {
  const offer = { ctx, specs: ctx.config.prompt.tools, all: ctx.config.tools.registry.specs() };
  for (const b of ctx.config.builtins ?? []) {
    if (pendingNames.includes(b.name) || b.offered(offer)) registered(ctx, b);
  }
}

/** The built-in's spec, registering its tool first if this is its first offer in the run. */
function registered(ctx: RunContext, builtin: RunBuiltin): ToolSpec {
  const registry = ctx.config.tools.registry;
  ctx.builtinSpecs ??= new Map();
  let spec = ctx.builtinSpecs.get(builtin);
  if (!spec) {
    const tool = builtin.make();
    registry.register(tool, { hidden: true, replace: true });
    spec = builtinSpec(tool);
    ctx.builtinSpecs.set(builtin, spec);
  }
  return spec;
}

/** The successful calls of one tool in the run's steps, oldest first. */
export function callsOf(steps: readonly Step[], tool: string): Step['toolCalls'] {
  return steps.flatMap((s) => s.toolCalls.filter((c) => c.ok && (c.tool ?? c.name) === tool));
}
