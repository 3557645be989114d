import { z } from 'zod';
import { type CodeModeOptions, codeMode } from '../../src/code/index.js';
import { type AnyTool, createToolExecutor, defineTool, ToolRegistry } from '../../src/tools/index.js';

/** A price list and a counter of the calls that reached it. */
export function priceTools() {
  const seen: string[] = [];
  const price = defineTool({
    name: 'price',
    description: 'Price of one item in USD.',
    input: z.object({ item: z.string().min(1) }),
    output: z.object({ item: z.string(), usd: z.number() }),
    run: ({ item }) => {
      seen.push(item);
      return { item, usd: item.length };
    },
  });
  return { price, seen };
}

/** Runs one program through `run_code` on a plain executor (no agent run) and returns its observation. */
export async function runCode(code: string, tools: AnyTool[], options: CodeModeOptions = {}) {
  const executor = createToolExecutor({ registry: new ToolRegistry([codeMode(tools, options)]) });
  const [record] = await executor.execute([{ id: 'c1', name: 'run_code', input: { code } }]);
  return record;
}
