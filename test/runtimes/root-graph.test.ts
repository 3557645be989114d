import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Message, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
// Node-only packages that a bundler could reach by name (the peers load by variable specifiers).
const NODE_PACKAGES = new Set(['better-sqlite3', 'node-llama-cpp', '@duckdb/node-api', 'pg', 'ioredis', 'bullmq']);

/** Bundles `contents` for the browser, keeping what esbuild said and the import graph it walked. */
async function browserBuild(contents: string): Promise<{ errors: Message[]; warnings: Message[]; metafile: Metafile }> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: 'app.ts', loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  }).catch((error: { errors?: Message[]; warnings?: Message[] }) => ({
    errors: error.errors ?? [],
    warnings: error.warnings ?? [],
    metafile: { inputs: {}, outputs: {} } as Metafile,
  }));
  return { errors: result.errors, warnings: result.warnings, metafile: result.metafile ?? { inputs: {}, outputs: {} } };
}

/** Every import of a Node built-in or Node-only package in the graph, as `importer -> specifier`. */
function nodeImports(metafile: Metafile): string[] {
  return Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports
      .filter((i) => NODE_BUILTINS.has(i.path) || NODE_PACKAGES.has(i.path) || i.path.startsWith('node:'))
      .map((i) => `${file} -> ${i.path}`),
  );
}

/** Every import cycle between our files (static and dynamic imports), each as a path back to its start. */
function cycles(metafile: Metafile): string[] {
  const ours = (file: string) => !file.includes('node_modules/');
  const found: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string) => {
    stack.push(file);
    for (const next of metafile.inputs[file]?.imports ?? []) {
      if (next.external || !metafile.inputs[next.path] || !ours(next.path)) continue;
      const at = stack.indexOf(next.path);
      if (at >= 0) found.push([...stack.slice(at), next.path].join(' -> '));
      else if (!done.has(next.path)) visit(next.path);
    }
    stack.pop();
    done.add(file);
  };
  for (const file of Object.keys(metafile.inputs)) if (ours(file) && !done.has(file)) visit(file);
  return found;
}

const nodeNamed = (messages: Message[]) =>
  messages.filter((m) => /node:|built-in|better-sqlite3|Could not resolve/i.test(m.text)).map((m) => m.text);

describe('the root entry runs anywhere', { timeout: 60_000 }, () => {
  it('its import graph names no Node built-in or Node-only package and has no cycle', async () => {
    const { errors, metafile } = await browserBuild(`export * from './src/index.ts';`);
    expect(errors.map((e) => e.text)).toEqual([]);
    expect(Object.keys(metafile.inputs).length).toBeGreaterThan(100);
    expect(nodeImports(metafile)).toEqual([]);
    expect(cycles(metafile)).toEqual([]);
  });

  // The subpaths split out of the root by intent run everywhere too; the integrations' (sqlite, server, ...) do not.
  it.each(['memory', 'workflow', 'trace', 'protocols', 'tools', 'models', 'testing', 'planning', 'durable'])(
    'thinkflow/%s names no Node built-in or Node-only package and has no cycle',
    async (entry) => {
      const { errors, metafile } = await browserBuild(`export * from './src/entries/${entry}.ts';`);
      expect(errors.map((e) => e.text)).toEqual([]);
      expect(nodeImports(metafile)).toEqual([]);
      expect(cycles(metafile)).toEqual([]);
    },
  );

  it('{ Agent, defineTool, openaiCompatible } bundles for the browser with no error or warning about Node', async () => {
    const { errors, warnings } = await browserBuild(
      `import { Agent, defineTool, openaiCompatible } from './src/index.ts'; console.log(Agent, defineTool, openaiCompatible);`,
    );
    expect(nodeNamed(errors)).toEqual([]);
    expect(nodeNamed(warnings)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the checks see a Node built-in and a cycle when one comes back', async () => {
    const { errors } = await browserBuild(`export * from './src/entries/sqlite.ts';`);
    expect(nodeNamed(errors).length).toBeGreaterThan(0);
    const graph: Metafile = {
      outputs: {},
      inputs: {
        'a.ts': { bytes: 1, imports: [{ path: 'b.ts', kind: 'import-statement', original: './b.js' }] },
        'b.ts': {
          bytes: 1,
          imports: [
            { path: 'a.ts', kind: 'import-statement', original: './a.js' },
            { path: 'node:fs', kind: 'import-statement', external: true, original: 'node:fs' },
          ],
        },
      },
    };
    expect(cycles(graph)).toEqual(['a.ts -> b.ts -> a.ts']);
    expect(nodeImports(graph)).toEqual(['b.ts -> node:fs']);
  });
});
