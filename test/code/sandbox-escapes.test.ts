import { describe, expect, it } from 'vitest';
import { priceTools, runCode } from './code-helpers.js';

// Each attempt must end as an observation naming what went wrong, with the host untouched.
describe('the sandbox refuses escape attempts', () => {
  it('reaches no host object through the Function constructor', async () => {
    const { price } = priceTools();
    for (const code of [
      "return this.constructor.constructor('return process')()",
      "return (async () => {}).constructor('return process')()",
      "return tools.constructor.constructor('return require')()",
      "return console.log.constructor('return globalThis.process.env')()",
    ]) {
      const record = await runCode(code, [price]);
      expect(record.output).toMatch(/^Error: (ReferenceError|TypeError)/);
    }
  });

  it('has no process, require, fetch, module or host bridge in scope', async () => {
    const { price } = priceTools();
    const record = await runCode(
      'return [typeof process, typeof require, typeof fetch, typeof module, typeof host, typeof WebAssembly, typeof setInterval]',
      [price],
    );
    expect(record.output).toBe(
      'Returned: ["undefined","undefined","undefined","undefined","undefined","undefined","undefined"]',
    );
  });

  it('returns values as JSON: prototype pollution stays inside the value', async () => {
    const { price } = priceTools();
    const record = await runCode(
      `Object.prototype.polluted = 1;
       return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')`,
      [price],
    );
    expect(record.output).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('a Proxy or a getter returned to the host is read inside the sandbox, never by the host', async () => {
    const { price } = priceTools();
    const proxy = await runCode('return new Proxy({}, { ownKeys() { throw new Error("trap ran") } })', [price]);
    expect(proxy.output).toBe('Error: The returned value cannot be turned into JSON: Error: trap ran');
    const getter = await runCode('let n = 0; return { get x() { n += 1; return n } }', [price]);
    expect(getter.output).toBe('Returned: {"x":1}');
    const looping = await runCode('return { get x() { while (true) {} } }', [price], { timeoutMs: 200 });
    expect(looping.output).toMatch(/^Error: The program ran longer than 200 ms \(timeoutMs\)/);
  });

  it('a tool that is not exposed rejects, and the program can catch it', async () => {
    const { price } = priceTools();
    const record = await runCode('try { await tools.deploy({}) } catch (e) { return "caught: " + e.message }', [price]);
    expect(record.output).toBe(
      'Returned: "caught: No tool named \\"deploy\\" is available to code. Available: price."',
    );
  });

  it('a tool marked callableFromCode: false is neither declared nor callable', async () => {
    const { price } = priceTools();
    const { defineTool } = await import('../../src/tools/index.js');
    const { z } = await import('zod');
    const wire = defineTool({
      name: 'wire_money',
      description: 'Sends money.',
      input: z.object({ to: z.string() }),
      callableFromCode: false,
      run: () => 'sent',
    });
    const { codeMode } = await import('../../src/code/index.js');
    expect(codeMode([price, wire]).description).not.toContain('wire_money');
    const record = await runCode('return await tools.wire_money({ to: "x" })', [price, wire]);
    expect(record.output).toMatch(/No tool named "wire_money"/);
  });

  it('an input the schema refuses rejects with the validation message, which the program can catch', async () => {
    const { price, seen } = priceTools();
    const record = await runCode(
      `try { await tools.price({ item: 42 }) } catch (e) { console.log("bad input:", e.message) }
       return (await tools.price({ item: "fig" })).usd`,
      [price],
    );
    expect(record.output).toMatch(/^Log:\nbad input: Invalid input for tool "price":\n- "item": expected string/);
    expect(record.output).toMatch(/Returned: 3$/);
    expect(seen).toEqual(['fig']);
  });
});
