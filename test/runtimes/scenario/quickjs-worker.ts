/**
 * How a Cloudflare Worker loads QuickJS for code mode: workerd compiles no WebAssembly from bytes at run
 * time, so the `.wasm` is a module of the bundle (wrangler and Miniflare's `CompiledWasm`), handed to
 * QuickJS ready to instantiate. `wasmBinary`, the same file as bytes, shows what the runtime refuses.
 */
// @ts-expect-error: a WebAssembly.Module, by the bundler's CompiledWasm rule.
import wasmModule from '@jitl/quickjs-wasmfile-release-sync/wasm';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
// @ts-expect-error: an ArrayBuffer, by the bundler's Data rule.
import wasmBinary from './quickjs.bin';

export const loadQuickJS = () =>
  newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule: wasmModule as WebAssembly.Module }));

export const loadQuickJSFromBytes = () =>
  newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmBinary: wasmBinary as ArrayBuffer }));
