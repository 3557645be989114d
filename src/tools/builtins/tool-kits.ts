import { ConfigError } from '../../core/index.js';
import type { AnyTool } from '../tool.js';
import type { BuiltinOptions } from './builtin-options.js';
import { builtinTools } from './node.js';

/** The kits and protocol an agent is given: from `--tools`/`--protocol`, or a config's `tools:`/`protocol:`. */
export interface KitDefaults<P extends string = string> {
  kits?: readonly string[];
  protocol?: P | 'auto';
}

/**
 * What a model spec brings when nothing is named: `demo` asks for the demo tools in ReAct, so with no kits it
 * gets the `demo` kit and, with the protocol left on `auto`, `react`. Every other model keeps what it was given.
 * `run`, `chat`, `eval` and a YAML/JSON config all read this, so `model: demo` behaves as `run --model demo`.
 */
export function withModelDefaults<P extends string = never>(
  spec: string | undefined,
  given: KitDefaults<P>,
): KitDefaults<P | 'react'> {
  if (spec?.trim() !== 'demo') return given;
  return {
    kits: given.kits ?? ['demo'],
    protocol: given.protocol === undefined || given.protocol === 'auto' ? 'react' : given.protocol,
  };
}

/**
 * Builds the tools of the named kits from `builtinTools` (the one table), each tool once. An unknown name is a
 * `ConfigError` that lists the kits, prefixed with `where` (a config file and agent) when given.
 */
export function toolsFromKits(kits: readonly string[], options: BuiltinOptions = {}, where = ''): AnyTool[] {
  const tools: AnyTool[] = [];
  for (const name of kits.map((n) => n.trim()).filter(Boolean)) {
    const make = builtinTools[name];
    if (!make) {
      const available = Object.keys(builtinTools).join(', ');
      throw new ConfigError({ message: `${where}Unknown tool kit "${name}". Available: ${available}.` });
    }
    for (const tool of make(options)) if (!tools.some((t) => t.name === tool.name)) tools.push(tool);
  }
  return tools;
}
