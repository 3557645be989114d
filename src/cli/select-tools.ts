import { ConfigError } from '../core/index.js';
import { type AnyTool, type BuiltinOptions, calculatorTool, demoTools } from '../tools/index.js';
import { builtinTools } from '../tools/node.js';

/** The demo model's tools: calculator, and search, weather, holidays and films over built-in mock data. */
export const DEMO_TOOLS: AnyTool[] = [calculatorTool, ...demoTools];

/** Builds the tools named in `--tools a,b,c` from the built-in kits. */
export function selectTools(names: string | undefined, options: BuiltinOptions, demo: boolean): AnyTool[] {
  if (!names) return demo ? DEMO_TOOLS : [];
  const tools: AnyTool[] = [];
  for (const name of names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)) {
    const make = name === 'demo' ? () => DEMO_TOOLS : builtinTools[name];
    if (!make) {
      throw new ConfigError({
        message: `Unknown tool kit "${name}". Available: ${['demo', ...Object.keys(builtinTools)].join(', ')}.`,
      });
    }
    for (const tool of make(options)) if (!tools.some((t) => t.name === tool.name)) tools.push(tool);
  }
  return tools;
}
