import { type CodeActProtocol, protocolOption } from '../code/index.js';
import { ConfigError } from '../core/index.js';
import type { AnyTool, BuiltinOptions } from '../tools/index.js';
import { builtinTools, toolsFromKits, withModelDefaults } from '../tools/node.js';

/** The demo model's tools: calculator, and search, weather, holidays and films over built-in mock data. */
export const DEMO_TOOLS: AnyTool[] = builtinTools.demo();

/** Splits `--tools a,b,c` into kit names (undefined when the flag is absent). */
export function kitNames(names: string | undefined): string[] | undefined {
  return names === undefined ? undefined : names.split(',').map((n) => n.trim());
}

/**
 * The tools and protocol for a model spec and the `--tools`/`--protocol` given: the named kits from the one
 * table (`builtinTools`), and for the demo model, when none are named, its demo kit in ReAct, as a YAML config does.
 */
export function selectTools<P extends string = never>(
  spec: string | undefined,
  given: { tools?: string | readonly string[]; protocol?: P | 'auto' },
  options: BuiltinOptions,
): { tools: AnyTool[]; protocol: Exclude<P, 'code'> | 'react' | 'auto' | CodeActProtocol } {
  const kits = typeof given.tools === 'string' ? kitNames(given.tools) : given.tools;
  const chosen = withModelDefaults(spec, { kits, protocol: given.protocol });
  // `--protocol code` is CodeAct: every reply a program, run by `run_code` (thinkflow/code).
  return { tools: toolsFromKits(chosen.kits ?? [], options), protocol: protocolOption(chosen.protocol ?? 'auto') };
}

/**
 * `--code-mode`: the tools, plus `run_code` over them (docs/code-mode.md), so the model may call tools one by one
 * or write one program that calls several. `thinkflow/code` loads only when asked for; QuickJS (an optional
 * peer) loads on the first program, with an error naming the install command when it is missing.
 */
export async function offerCode(
  tools: AnyTool[],
  flags: { codeMode?: boolean; protocol?: string },
): Promise<AnyTool[]> {
  if (!flags.codeMode) return tools;
  if (flags.protocol === 'code') {
    throw new ConfigError({
      message:
        '--code-mode offers run_code beside tool calls, and --protocol code already makes every reply a program: use one of them.',
    });
  }
  const { codeMode } = await import('../code/index.js');
  return [...tools, codeMode(tools)];
}
