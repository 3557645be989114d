import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { assertPeers, ConfigError, errorMessage, importOptional, maybeNodeBuiltin } from '../core/index.js';

/**
 * Where the QuickJS sandbox gets its WebAssembly module: a module loaded by the app, or a function that
 * loads one (called on first use, and again after a program broke the last one). Node, Bun and Deno need
 * none (the peer `quickjs-emscripten` loads its own `.wasm` file); a browser or a Worker passes one.
 */
export type QuickJsModuleSource = QuickJSWASMModule | (() => Promise<QuickJSWASMModule>);

/** One QuickJS module, loaded on first use and shared by every program until one breaks it. */
export interface QuickJsLoader {
  get(): Promise<QuickJSWASMModule>;
  /** Forgets the module (a program broke it): the next `get` loads a fresh one where it can. */
  drop(): void;
}

const DOCS = 'See docs/code-mode.md#runtimes.';
const WORKER_RECIPE =
  "import QuickJS's .wasm as a module (`import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm'`, a CompiledWasm module for wrangler and Miniflare) and pass it: `codeMode(tools, { sandbox: quickJsSandbox({ module: () => newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule })) }) })`, with those three from quickjs-emscripten";
const BROWSER_RECIPE =
  "load QuickJS in your bundle and pass it: `codeMode(tools, { sandbox: quickJsSandbox({ module: () => newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmLocation })) }) })`, with those three from quickjs-emscripten and `wasmLocation` the URL your page serves `@jitl/quickjs-wasmfile-release-sync/wasm` at (Vite: `import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'`)";

/** True in a Cloudflare Worker (workerd), which compiles WebAssembly only from modules in its bundle. */
function isWorker(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
}

/**
 * Why this runtime cannot load `quickjs-emscripten` by itself, as a message naming what to do, or undefined
 * where it can (Node, Bun, Deno: the peer is resolved from node_modules and reads its own `.wasm` file).
 */
export function defaultLoadRefusal(): string | undefined {
  if (isWorker()) {
    return `Code mode cannot load QuickJS by itself in a Cloudflare Worker, which compiles WebAssembly only from modules in its bundle: ${WORKER_RECIPE}. ${DOCS}`;
  }
  if (!maybeNodeBuiltin('node:module')) {
    return `Code mode cannot load QuickJS by itself in this runtime (it has no node:module to find quickjs-emscripten with: a browser or another web runtime): ${BROWSER_RECIPE}. ${DOCS}`;
  }
  return undefined;
}

/**
 * Checks at setup that the default sandbox can load here: the runtime can find packages, and
 * `quickjs-emscripten` is installed. Each failure is one `ConfigError` naming what to do.
 */
export function assertQuickJsLoads(): void {
  const refusal = defaultLoadRefusal();
  if (refusal) throw new ConfigError({ message: refusal });
  assertPeers('code');
}

// The default module loads once per process (about 40 ms); each program then gets a fresh runtime.
let shared: Promise<QuickJSWASMModule> | undefined;
const defaultLoader: QuickJsLoader = {
  get() {
    shared ??= loadDefault();
    // A failed load (a missing peer) is tried again next time, after the user installed it.
    shared.catch(() => {
      shared = undefined;
    });
    return shared;
  },
  drop() {
    shared = undefined;
  },
};

async function loadDefault(): Promise<QuickJSWASMModule> {
  const refusal = defaultLoadRefusal();
  if (refusal) throw new ConfigError({ message: refusal });
  const quickjs = await importOptional<typeof import('quickjs-emscripten')>('code', 'quickjs-emscripten');
  return explained(quickjs.newQuickJSWASMModule());
}

/** The loader for `source`: the app's own module, or `quickjs-emscripten`'s release build by default. */
export function quickJsLoader(source: QuickJsModuleSource | undefined): QuickJsLoader {
  if (source === undefined) return defaultLoader;
  if (typeof source !== 'function') {
    const ready = Promise.resolve(source);
    return { get: () => ready, drop() {} };
  }
  let loading: Promise<QuickJSWASMModule> | undefined;
  return {
    get() {
      loading ??= explained(source());
      loading.catch(() => {
        loading = undefined;
      });
      return loading;
    },
    drop() {
      loading = undefined;
    },
  };
}

/** The module, or a `ConfigError` that says what to do when the runtime refused its WebAssembly. */
async function explained(module: Promise<QuickJSWASMModule>): Promise<QuickJSWASMModule> {
  try {
    return await module;
  } catch (error) {
    const message = errorMessage(error);
    if (/code generation disallowed/i.test(message)) {
      throw new ConfigError({
        message: `Code mode could not compile QuickJS's WebAssembly: this runtime refuses to compile WebAssembly from bytes at run time (a Cloudflare Worker does). Instead, ${WORKER_RECIPE}. ${DOCS}`,
        cause: error,
      });
    }
    if (/fetching of the wasm failed/i.test(message)) {
      throw new ConfigError({
        message: `Code mode could not fetch QuickJS's .wasm file (${message}). In a browser, ${BROWSER_RECIPE}; in a Worker, ${WORKER_RECIPE}. ${DOCS}`,
        cause: error,
      });
    }
    if (/expected magic word/i.test(message)) {
      throw new ConfigError({
        message: `Code mode could not compile QuickJS's WebAssembly: what it loaded is not a .wasm file (${message}; a page's server answering with HTML?). Serve @jitl/quickjs-wasmfile-release-sync/wasm at the URL given as wasmLocation. ${DOCS}`,
        cause: error,
      });
    }
    throw error;
  }
}
