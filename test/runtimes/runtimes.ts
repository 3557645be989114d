import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** Where one runtime runs the bundled scenario: its folder holds `scenario.js`. */
export interface RuntimeRun {
  work: string;
  baseURL: string;
}

/** One runtime of the matrix: how to run the scenario there, or why it cannot run on this machine. */
export interface Runtime {
  name: string;
  /** Whether the scenario serves the fetch handler on a port there (else the client calls it directly). */
  serves: boolean;
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
  missing: () => undefined,
  run: (ctx) => runProcess(process.execPath, [], ctx),
};

export const bun: Runtime = {
  name: 'Bun',
  serves: true,
  missing: () => (BUN ? undefined : 'the npm package bun (its binary) is not installed'),
  run: (ctx) => runProcess(BUN ?? 'bun', ['run'], ctx, { BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0' }),
};

export const deno: Runtime = {
  name: 'Deno',
  serves: true,
  missing: () => (DENO ? undefined : 'the npm package deno (its binary) is not installed'),
  run: (ctx) =>
    runProcess(
      DENO ?? 'deno',
      ['run', '--no-config', '--no-lock', '--allow-net=127.0.0.1', '--allow-env=OPENAI_*'],
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
export default { async fetch(request) { return Response.json(await runScenario(new URL(request.url).searchParams.get('model'))); } };
`,
    );
    // The modules named, as wrangler passes its bundle: Miniflare's own module walk refuses any import() whose
    // specifier is not a literal, even one that never runs (the Node-only skills loader stays behind one).
    const mf = new Miniflare({
      modules: [
        { type: 'ESModule', path: join(ctx.work, 'worker.mjs') },
        { type: 'ESModule', path: join(ctx.work, 'scenario.mjs') },
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
      await page.route(`${page_}**`, (route) => {
        const file = new URL(route.request().url()).pathname.endsWith('.mjs') ? 'scenario.mjs' : undefined;
        return file
          ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(ctx.work, file), 'utf8') })
          : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>scenario</title>' });
      });
      await page.goto(`${page_}index.html`);
      // A string, not a function: the test runner rewrites import() inside functions it compiles.
      const url = JSON.stringify(ctx.baseURL);
      try {
        return await page.evaluate(
          `import(${url} + '/scenario/scenario.mjs').then((m) => m.runScenario(${url})).then(JSON.stringify)`,
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
