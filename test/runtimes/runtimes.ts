import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const run = promisify(execFile);

const SCENARIO = join(import.meta.dirname, 'scenario');
/** QuickJS's WebAssembly, as `@jitl/quickjs-wasmfile-release-sync/wasm` names it. */
const QUICKJS_WASM = require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');

/**
 * A bundler's rule for the Worker's `.wasm` import, as wrangler applies it: the file stays out of the
 * bundle, a module of its own next to it (`CompiledWasm` for the wasm, `Data` for its bytes).
 */
const wasmModules: Plugin = {
  name: 'wasm-modules',
  setup(b) {
    b.onResolve({ filter: /\/wasm$/ }, () => ({ path: './quickjs.wasm', external: true }));
    b.onResolve({ filter: /\.bin$/ }, () => ({ path: './quickjs.bin', external: true }));
  },
};

/** just-bash's browser build imports `node:zlib` (for gzip): the app bundles a stub in its place. */
const zlibShim: Plugin = {
  name: 'zlib-shim',
  setup(b) {
    b.onResolve({ filter: /^node:zlib$/ }, () => ({ path: join(SCENARIO, 'zlib-shim.ts') }));
  },
};

/**
 * Builds the app into `work` as a user would ship it: the scenario bundled once by esbuild for the
 * browser platform (the root entry needs no Node built-in), and how a page and a Worker load QuickJS.
 * The folder is the app's own: a package.json naming `quickjs-emscripten`, and node_modules.
 */
export async function buildApp(work: string): Promise<void> {
  const common = { bundle: true, platform: 'browser', format: 'esm', target: 'es2022', logLevel: 'silent' } as const;
  const results = await Promise.all([
    build({
      ...common,
      entryPoints: [join(SCENARIO, 'scenario.ts')],
      outfile: join(work, 'scenario.mjs'),
      plugins: [zlibShim],
    }),
    build({
      ...common,
      entryPoints: [join(SCENARIO, 'quickjs-browser.ts')],
      outfile: join(work, 'quickjs-browser.mjs'),
    }),
    build({
      ...common,
      entryPoints: [join(SCENARIO, 'quickjs-worker.ts')],
      outfile: join(work, 'quickjs-worker.mjs'),
      conditions: ['workerd', 'worker', 'browser'],
      plugins: [wasmModules],
    }),
  ]);
  const warnings = results.flatMap((r) => r.warnings.map((w) => w.text));
  if (warnings.length > 0) throw new Error(`The app bundled with warnings: ${warnings.join('; ')}`);
  copyFileSync(QUICKJS_WASM, join(work, 'quickjs.wasm'));
  copyFileSync(QUICKJS_WASM, join(work, 'quickjs.bin'));
  writeFileSync(
    join(work, 'package.json'),
    JSON.stringify({ type: 'module', private: true, dependencies: { 'quickjs-emscripten': '0.32.0' } }),
  );
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
}

/** Where one runtime runs the bundled scenario: its folder holds `scenario.mjs`. */
export interface RuntimeRun {
  work: string;
  baseURL: string;
}

/** One runtime of the matrix: how to run the scenario there, or why it cannot run on this machine. */
export interface Runtime {
  name: string;
  /** Whether the scenario serves the fetch handler on a port there (else the client calls it directly). */
  serves: boolean;
  /**
   * How the app gets QuickJS for code mode: `found` by thinkflow in the app's node_modules, or loaded by
   * the app itself, by a page from its served `.wasm` (`browser`) or by a Worker from a wasm module (`worker`).
   */
  code: 'found' | 'browser' | 'worker';
  /** Why the runtime is missing here, or undefined when it can run. */
  missing(): string | undefined;
  run(ctx: RuntimeRun): Promise<string>;
}

/** A binary shipped inside an npm package (`@oven/bun-linux-x64/bin/bun`), else the package's bin link. */
function packagedBinary(platformPackage: string, file: string, bin: string): string | undefined {
  try {
    const path = join(dirname(require.resolve(`${platformPackage}/package.json`)), file);
    if (existsSync(path)) return path;
  } catch {}
  const link = join(ROOT, 'node_modules', '.bin', bin);
  return existsSync(link) ? link : undefined;
}

const arch = process.arch === 'arm64' ? 'aarch64' : 'x64';
const BUN = packagedBinary(`@oven/bun-linux-${arch === 'x64' ? 'x64' : 'aarch64'}`, 'bin/bun', 'bun');
const DENO = packagedBinary(`@deno/linux-${arch === 'x64' ? 'x64' : 'arm64'}-glibc`, 'deno', 'deno');
export const CHROMIUM = '/usr/bin/chromium';

// The same lines on Node, Bun and Deno: run the scenario against the URL given, print its report.
// Bun and Deno serve the fetch handler on a port of their own; Node (no fetch server built in) calls it.
const MAIN = `import { runScenario } from './scenario.mjs';
const url = globalThis.Deno ? Deno.args[0] : process.argv[2];
const serve = globalThis.Bun
  ? async (fetch) => {
      const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch });
      return { url: 'http://127.0.0.1:' + server.port, close: async () => server.stop(true) };
    }
  : globalThis.Deno
    ? async (fetch) => {
        const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, fetch);
        return { url: 'http://127.0.0.1:' + server.addr.port, close: () => server.shutdown() };
      }
    : undefined;
console.log(JSON.stringify(await runScenario(url, serve)));
`;

async function runProcess(command: string, args: string[], ctx: RuntimeRun, env: Record<string, string> = {}) {
  writeFileSync(join(ctx.work, 'main.mjs'), MAIN);
  const { stdout } = await run(command, [...args, join(ctx.work, 'main.mjs'), ctx.baseURL], {
    cwd: ctx.work,
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
  return stdout.trim().split('\n').at(-1) ?? '';
}

export const node: Runtime = {
  name: `Node ${process.versions.node}`,
  serves: false,
  code: 'found',
  missing: () => undefined,
  run: (ctx) => runProcess(process.execPath, [], ctx),
};

export const bun: Runtime = {
  name: 'Bun',
  serves: true,
  code: 'found',
  missing: () => (BUN ? undefined : 'the npm package bun (its binary) is not installed'),
  run: (ctx) => runProcess(BUN ?? 'bun', ['run'], ctx, { BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0' }),
};

export const deno: Runtime = {
  name: 'Deno',
  serves: true,
  code: 'found',
  missing: () => (DENO ? undefined : 'the npm package deno (its binary) is not installed'),
  run: (ctx) =>
    runProcess(
      DENO ?? 'deno',
      // The app's package.json names quickjs-emscripten, found in its node_modules; code mode reads its .wasm.
      [
        'run',
        '--no-config',
        '--no-lock',
        '--node-modules-dir=manual',
        '--allow-net=127.0.0.1',
        // just-bash's glob matcher (minimatch) reads one variable of its own.
        '--allow-env=OPENAI_*,__MINIMATCH_TESTING_PLATFORM__',
        `--allow-read=${ctx.work},${join(ROOT, 'node_modules')}`,
      ],
      ctx,
      {
        DENO_NO_UPDATE_CHECK: '1',
        DENO_DIR: join(ctx.work, '.deno'),
      },
    ),
};

export const workerd: Runtime = {
  name: 'workerd (Miniflare)',
  serves: false,
  code: 'worker',
  missing: () => {
    try {
      require.resolve('miniflare');
      return undefined;
    } catch {
      return 'the npm package miniflare is not installed';
    }
  },
  async run(ctx) {
    const { Miniflare } = await import('miniflare');
    // A Worker's fetch runs the scenario: the request says where the model server is.
    writeFileSync(
      join(ctx.work, 'worker.mjs'),
      `import { runScenario } from './scenario.mjs';
import { loadQuickJS, loadQuickJSFromBytes } from './quickjs-worker.mjs';
export default {
  async fetch(request) {
    const model = new URL(request.url).searchParams.get('model');
    return Response.json(await runScenario(model, undefined, { module: loadQuickJS, unloadable: loadQuickJSFromBytes }));
  },
};
`,
    );
    // The modules named, as wrangler passes its bundle: Miniflare's own module walk refuses any import() whose
    // specifier is not a literal, even one that never runs (the Node-only skills loader stays behind one).
    const mf = new Miniflare({
      modules: [
        { type: 'ESModule', path: join(ctx.work, 'worker.mjs') },
        { type: 'ESModule', path: join(ctx.work, 'scenario.mjs') },
        { type: 'ESModule', path: join(ctx.work, 'quickjs-worker.mjs') },
        { type: 'CompiledWasm', path: join(ctx.work, 'quickjs.wasm') },
        { type: 'Data', path: join(ctx.work, 'quickjs.bin') },
      ],
      modulesRoot: ctx.work,
      compatibilityDate: '2025-09-01',
    });
    try {
      const response = await mf.dispatchFetch(`http://worker.test/?model=${encodeURIComponent(ctx.baseURL)}`);
      return await response.text();
    } finally {
      await mf.dispose();
    }
  },
};

export const chromiumRuntime: Runtime = {
  name: 'Chromium',
  serves: false,
  code: 'browser',
  missing: () => (existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (apt-get install -y chromium)`),
  async run(ctx) {
    const { readFileSync } = await import('node:fs');
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('crash', () => errors.push('the page crashed'));
      // The page and its bundle are served from the model server's origin, so its fetches are same-origin.
      const page_ = `${ctx.baseURL}/scenario/`;
      // The page serves its two bundles and QuickJS's .wasm beside them.
      const files: Record<string, string> = {
        'scenario.mjs': 'text/javascript',
        'quickjs-browser.mjs': 'text/javascript',
        'quickjs.wasm': 'application/wasm',
      };
      await page.route(`${page_}**`, (route) => {
        const file = new URL(route.request().url()).pathname.slice(new URL(page_).pathname.length);
        if (files[file]) return route.fulfill({ contentType: files[file], body: readFileSync(join(ctx.work, file)) });
        return file === 'index.html'
          ? route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>scenario</title>' })
          : route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
      });
      await page.goto(`${page_}index.html`);
      // A string, not a function: the test runner rewrites import() inside functions it compiles.
      const url = JSON.stringify(ctx.baseURL);
      try {
        return await page.evaluate(
          `Promise.all([import(${url} + '/scenario/scenario.mjs'), import(${url} + '/scenario/quickjs-browser.mjs')])
            .then(([m, q]) => m.runScenario(${url}, undefined, { module: q.loadQuickJS, unloadable: q.loadMissingQuickJS }))
            .then(JSON.stringify)`,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; page errors: ${errors.join('; ') || 'none'}`);
      }
    } finally {
      await browser.close();
    }
  },
};

/** The matrix, in the order the test runs it. */
export const RUNTIMES: Runtime[] = [node, bun, deno, workerd, chromiumRuntime];
