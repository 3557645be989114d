// Usage: node [--import tsx] test/helpers/loaded-packages.mjs MODULE [argv...]
// Imports MODULE (a path or package name) and prints on exit, as the last line of JSON, every package under node_modules that
// got loaded: ESM modules through a load hook, CommonJS ones from require.cache.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'thinkflow-loaded-'));
const log = join(dir, 'loaded.txt');
register('./loaded-packages-hooks.mjs', import.meta.url, { data: { log } });

// Printed on exit, so a CLI that ends the process itself (`--help`) is measured too.
process.on('exit', report);
const [target, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], target, ...rest];
await import(target.startsWith('.') || target.startsWith('/') ? pathToFileURL(resolve(target)).href : target);

function report() {
  const urls = [...readFileSync(log, 'utf8').split('\n'), ...Object.keys(createRequire(import.meta.url).cache)];
  const packages = new Set();
  for (const url of urls) {
    const match = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
    if (match) packages.add(match[1]);
  }
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`\n${JSON.stringify([...packages].sort())}\n`);
}
