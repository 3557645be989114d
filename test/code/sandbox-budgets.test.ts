import { describe, expect, it } from 'vitest';
import { priceTools, runCode } from './code-helpers.js';

describe('the sandbox stops each budget with a clear error', () => {
  it('while (true) {} is interrupted at timeoutMs', async () => {
    const { price } = priceTools();
    const record = await runCode('while (true) {}', [price], { timeoutMs: 100 });
    expect(record.output).toMatch(/^Error: The program ran longer than 100 ms \(timeoutMs\)/);
    expect(record.ok).toBe(true);
  });

  it('a 1 GB array runs out of memoryBytes', async () => {
    const { price } = priceTools();
    const record = await runCode('const a = new Uint8Array(1024 * 1024 * 1024); return a.length', [price], {
      memoryBytes: 16 * 1024 * 1024,
    });
    expect(record.output).toMatch(/^Error: The program used more than 16777216 bytes of memory \(memoryBytes\)/);
  });

  it('deep recursion stops at the stack limit, and the next program still runs', async () => {
    const { price } = priceTools();
    const record = await runCode('function f(n) { return f(n + 1) + 1 } return f(0)', [price]);
    expect(record.output).toMatch(/^Error: The program recursed too deeply/);
    expect((await runCode('return 1 + 1', [price])).output).toBe('Returned: 2');
  });

  it('an unresolved promise is reported, not waited for', async () => {
    const { price } = priceTools();
    const record = await runCode('await new Promise(() => {}); return 1', [price]);
    expect(record.output).toMatch(/^Error: The program is waiting for a promise that nothing will ever settle/);
  });

  it('10,000 tool calls stop at maxToolCalls, and the calls before it ran', async () => {
    const { price, seen } = priceTools();
    const record = await runCode(
      'const all = []; for (let i = 0; i < 10000; i++) all.push(tools.price({ item: "x" + i })); await Promise.all(all)',
      [price],
      { maxToolCalls: 50 },
    );
    expect(record.output).toMatch(/^Error: The program made more than 50 tool calls \(maxToolCalls\)/);
    expect(seen.length).toBeLessThanOrEqual(50);
  });

  it('returned text beyond maxOutputBytes is an error that shows its beginning', async () => {
    const { price } = priceTools();
    const record = await runCode('return "x".repeat(5000)', [price], { maxOutputBytes: 1000 });
    expect(record.output).toMatch(/^Error: The program returned 5002 bytes of output .*maxOutputBytes.*It began: "xxx/);
  });

  it('at most maxConcurrency calls are in flight; the others wait', async () => {
    const { defineTool } = await import('../../src/tools/index.js');
    const { z } = await import('zod');
    let inFlight = 0;
    let most = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits a little.',
      input: z.object({ n: z.number() }),
      run: async ({ n }) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        return n;
      },
    });
    const record = await runCode(
      'const xs = await Promise.all(Array.from({ length: 12 }, (_, n) => tools.slow({ n }))); return xs.length',
      [slow],
      { maxConcurrency: 3 },
    );
    expect(record.output).toBe('Returned: 12');
    expect(most).toBe(3);
  });

  it('Math.random and Date.now are seeded: the same journal gives the same values', async () => {
    const { price } = priceTools();
    const a = await runCode('return [Math.random(), Math.random(), typeof Date.now()]', [price]);
    expect(a.output).toMatch(/^Returned: \[0\.\d+,0\.\d+,"number"\]$/);
  });

  it('a program in TypeScript has its types stripped', async () => {
    const { price } = priceTools();
    const record = await runCode(
      'interface P { usd: number }\nconst p: P = await tools.price({ item: "kiwi" } as { item: string });\nreturn p.usd as number',
      [price],
    );
    expect(record.output).toBe('Returned: 4');
  });
});
