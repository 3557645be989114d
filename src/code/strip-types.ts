import { importOptional } from '../core/index.js';

type EsbuildPackage = typeof import('esbuild');

const HEAD = 'async function __program__() {\n';

/**
 * The program with its TypeScript types removed, by esbuild's transform (an optional peer, loaded
 * only when a program does not parse as JavaScript). Resolves undefined when esbuild is not
 * installed or cannot read it either; the caller then reports the original syntax error.
 * Nothing here evaluates the code.
 */
export async function stripTypes(code: string): Promise<string | undefined> {
  let esbuild: EsbuildPackage;
  try {
    esbuild = await importOptional<EsbuildPackage>('codeTypes', 'esbuild');
  } catch {
    return undefined;
  }
  try {
    // A body with `return` and top-level `await` is only valid inside a function.
    const { code: out } = await esbuild.transform(`${HEAD}${code}\n}`, { loader: 'ts', target: 'es2022' });
    const open = out.indexOf('{');
    const close = out.lastIndexOf('}');
    return open >= 0 && close > open ? out.slice(open + 1, close) : undefined;
  } catch {
    return undefined;
  }
}
