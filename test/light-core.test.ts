import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildProgram, COMMANDS } from '../src/cli/program.js';
import { bundleQuickstart } from './helpers/bundle-quickstart.js';

const ROOT = join(import.meta.dirname, '..');
const run = promisify(execFile);
// tsx runs the sources here; its own packages are not the app's.
const TOOLING = new Set(['tsx', 'esbuild', 'get-tsconfig', 'resolve-pkg-maps']);
const HEAVY = [
  'pg',
  'ioredis',
  'bullmq',
  '@duckdb/node-api',
  'vega',
  'vega-lite',
  '@resvg/resvg-js',
  '@modelcontextprotocol/sdk',
  'node-llama-cpp',
  'gpt-tokenizer',
  'better-sqlite3',
  'hono',
  '@opentelemetry/api',
  'mathjs',
];

/** The packages from node_modules that loading `target` (with `args`) pulled in. */
async function loadedPackages(target: string, args: string[] = []): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'helpers', 'loaded-packages.mjs'), target, ...args],
    { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } },
  );
  const packages: string[] = JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]');
  return packages.filter((name) => !TOOLING.has(name));
}

describe('a light core', { timeout: 60_000 }, () => {
  it('importing the root loads zod and four small packages, none of the integrations', async () => {
    const packages = await loadedPackages('./src/index.ts');
    expect(packages).toEqual(['@noble/hashes', 'jsonrepair', 'picocolors', 'tokenx', 'zod']);
    expect(packages.filter((name) => HEAVY.includes(name))).toEqual([]);
  });

  it('thinkflow --help loads commander only', async () => {
    expect(await loadedPackages('./src/cli/main.ts', ['--help'])).toEqual(['commander']);
  });

  it('--help lists every command with the description its module registers', async () => {
    const full = await buildProgram('all');
    const registered = Object.fromEntries(full.commands.map((c) => [c.name(), c.description()]));
    const listed = Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, c.description]));
    expect(listed).toEqual(registered);
  });

  it('a command loads in full when it runs or shows its help', async () => {
    const program = await buildProgram(['node', 'thinkflow', 'help', 'run']);
    const runCommand = program.commands.find((c) => c.name() === 'run');
    expect(runCommand?.options.map((o) => o.long)).toContain('--model');
    const other = program.commands.find((c) => c.name() === 'serve');
    expect(other?.options).toEqual([]);
  });

  it('esbuild bundles { Agent, defineTool, openaiCompatible } with default options, and the bundle runs alone', async () => {
    const result = await bundleQuickstart();
    expect(result.output).toBe('done It is 21 °C and clear in Paris.');
  });
});
