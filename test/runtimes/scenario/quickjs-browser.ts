/**
 * How a page bundled by esbuild loads QuickJS for code mode: the page serves
 * `@jitl/quickjs-wasmfile-release-sync/wasm` next to its bundle and says where (with Vite,
 * `import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'` does both).
 */
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';

export const loadQuickJS = () =>
  newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, { wasmLocation: new URL('./quickjs.wasm', import.meta.url).href }),
  );

/** A page that forgot to serve the `.wasm`: what the user sees then. */
export const loadMissingQuickJS = () =>
  newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, { wasmLocation: new URL('./missing.wasm', import.meta.url).href }),
  );
