import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import { describe, expect, it } from 'vitest';
import { quickJsSandbox } from '../../src/code/index.js';
import { priceTools, runCode } from './code-helpers.js';

const WASM = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');

// The matrix (test/runtimes) runs these on workerd and Chromium; here the same options on Node.
describe('quickJsSandbox({ module }): the app hands QuickJS in', () => {
  it('a pre-compiled WebAssembly.Module (as a Worker imports it) runs programs, loaded once for all of them', async () => {
    const { price, seen } = priceTools();
    const wasmModule = await WebAssembly.compile(readFileSync(WASM));
    let loads = 0;
    const sandbox = quickJsSandbox({
      module: () => {
        loads += 1;
        return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule }));
      },
    });
    const first = await runCode('const p = await tools.price({ item: "fig" }); return p.usd', [price], { sandbox });
    const second = await runCode('return 40 + 2', [price], { sandbox });
    expect([first.output, second.output]).toEqual(['Returned: 3', 'Returned: 42']);
    expect(seen).toEqual(['fig']);
    expect(loads).toBe(1);
  });

  it('a module already loaded is used as it is', async () => {
    const { price } = priceTools();
    const module = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);
    const record = await runCode('return [1, 2, 3].length', [price], { sandbox: quickJsSandbox({ module }) });
    expect(record.output).toBe('Returned: 3');
  });

  it('a loader that failed is called again for the next program', async () => {
    const { price } = priceTools();
    const locations = ['/nonexistent/quickjs.wasm', WASM];
    const sandbox = quickJsSandbox({
      module: () => newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmLocation: locations.shift() })),
    });
    const failed = await runCode('return 1', [price], { sandbox });
    expect(failed.ok).toBe(false);
    expect(failed.output).toMatch(/nonexistent\/quickjs\.wasm/);
    expect((await runCode('return 2', [price], { sandbox })).output).toBe('Returned: 2');
  });

  it('bytes that are not WebAssembly (a server answering with HTML) are a ConfigError that says so', async () => {
    const { price } = priceTools();
    const html = new TextEncoder().encode('<!doctype html><title>Not found</title>');
    const sandbox = quickJsSandbox({
      module: () => newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmBinary: html.buffer })),
    });
    const record = await runCode('return 1', [price], { sandbox });
    expect(record.ok).toBe(false);
    expect(record.output).toMatch(
      /Code mode could not compile QuickJS's WebAssembly: what it loaded is not a \.wasm file \(.*expected magic word/,
    );
    expect(record.output).toMatch(/at the URL given as wasmLocation/);
  });
});
