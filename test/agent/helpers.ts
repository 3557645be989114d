import { z } from 'zod';
import type { AgentEvent, ModelResponse } from '../../src/index.js';
import { defineTool } from '../../src/index.js';

/** A native tool-call reply. */
export function call(
  name: string,
  args: Record<string, unknown>,
  id = `c_${name}_${JSON.stringify(args).length}`,
): ModelResponse {
  return { text: '', toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}

export function calls(...items: [string, Record<string, unknown>][]): ModelResponse {
  return {
    text: '',
    toolCalls: items.map(([name, args], i) => ({ id: `c${i}`, name, arguments: JSON.stringify(args) })),
  };
}

export const addTool = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => a + b,
});

export function waitTool(name: string, ms: number, log: string[] = []) {
  return defineTool({
    name,
    description: `Waits ${ms} ms.`,
    input: z.object({ id: z.string() }),
    run: async ({ id }, ctx) => {
      log.push(`start:${id}`);
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        });
      });
      log.push(`end:${id}`);
      return `done ${id}`;
    },
  });
}

export function types(events: AgentEvent[]): string[] {
  return events.map((e) => e.type).filter((t) => t !== 'model_delta');
}
