import type { ToolSpec } from '../core/index.js';
import type { RunContext } from './loop-config.js';

export type { OfferedTool } from './loop-config.js';

/** The step's tools plus the built-in tools offered now, each once (none: the same array back). */
export function withOfferedTools(ctx: RunContext, specs: ToolSpec[]): ToolSpec[] {
  const offered = ctx.config.offered;
  if (!offered?.length) return specs;
  let out = specs;
  for (const { tool, when } of offered) {
    if (!when(ctx) || out.some((s) => s.name === tool.name)) continue;
    const registry = ctx.config.tools.registry;
    if (!registry.get(tool.name)) registry.register(tool);
    const { name, description, parameters } = tool;
    out = [...out, { name, description, parameters }];
  }
  return out;
}
