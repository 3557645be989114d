import { z } from 'zod';
import { defineTool } from '../../../src/index.js';

// Fixtures for runs cut off inside a step of several calls: tools that count their runs, and a poll.

/** Tools that count their runs; `slow` waits until `release()` or the run's abort. */
export function counted() {
  const runs: Record<string, number> = {};
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const bump = (name: string) => {
    runs[name] = (runs[name] ?? 0) + 1;
  };
  const tool = (name: string, idempotent: boolean, output: string, wait = false) =>
    defineTool({
      name,
      description: name,
      input: z.object({}),
      idempotent,
      run: async (_input, ctx) => {
        bump(name);
        if (wait) {
          await Promise.race([
            released,
            new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
          ]);
        }
        return output;
      },
    });
  const tools = [
    tool('lookup', true, 'lookup result'),
    tool('charge', false, 'charged 42'),
    tool('slow', true, 'slow result', true),
  ];
  return { runs, release, tools };
}

export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!check()) throw new Error('condition not met');
}
